// A test server an example's hidden part starts (e2e/support/mcp-*.mjs), as
// the README app has it: the real one runs in Node, started by the spec for
// this test on a free port, which passes its addresses in `?servers=`.
interface Addresses {
  origin: string;
  url: string;
  issuer?: string;
}

/** The server the spec started under `name`, with its state and controls read over HTTP (its /state and /control). */
export function startedServer(name: string) {
  const servers = JSON.parse(new URLSearchParams(location.search).get('servers') ?? '{}') as Record<string, Addresses>;
  const addresses = servers[name];
  if (!addresses) throw new Error(`The spec started no ${name} for this example`);
  return {
    ...addresses,
    // Hidden parts read a server's state as a property, as Node has it: here it lives
    // in Node, so a synchronous request (a test page's only such, deprecated but kept).
    get state(): unknown {
      return JSON.parse(request('GET', `${addresses.origin}/state`));
    },
    control(what: string) {
      request('POST', `${addresses.origin}/control?do=${encodeURIComponent(what)}`);
    },
    // The spec closes it after the test.
    close: async () => undefined,
  };
}

function request(method: string, url: string): string {
  const xhr = new XMLHttpRequest();
  xhr.open(method, url, false);
  xhr.send();
  if (xhr.status !== 200) throw new Error(`${method} ${url}: ${xhr.status}`);
  return xhr.responseText;
}
