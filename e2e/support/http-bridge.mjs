// What every MCP test server here shares: CORS for a page on another origin,
// the bridge from Node's HTTP server to a handler that takes a web Request
// and gives a web Response (as the SDKs' web-standard transports do), and the
// routes a test drives a server by. A server brings only its own routes and
// its MCP server.

/** What MCP's HTTP transport answers with that a page may only read when exposed (the session, the version, an auth challenge, a stream's resume point). */
export const MCP_EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate, last-event-id';
/** What an MCP client sends beyond CORS's simple headers. */
export const MCP_REQUEST_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';

/** CORS headers for every answer, preflights included: `origin` is `*` or the one to name, `allowHeaders` what a preflight may ask for. */
export function corsHeaders({ origin = '*', allowHeaders = MCP_REQUEST_HEADERS } = {}) {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': allowHeaders,
    'access-control-expose-headers': MCP_EXPOSED_HEADERS,
    'access-control-max-age': '600',
  };
}

const CORS = corsHeaders();

/**
 * A Node request listener that answers with `handle(request)`. Every answer
 * carries CORS for any origin, every OPTIONS is a preflight answered here,
 * a POST's body goes along, the request's signal aborts when the client goes,
 * and the answer streams back as it comes: SSE events (progress, list
 * changes) must arrive while a call runs. A throw answers 500.
 */
export function webListener(handle) {
  return async (req, res) => {
    try {
      if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
      const url = new URL(req.url, `http://${req.headers.host}`);
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = req.method === 'POST' && chunks.length ? Buffer.concat(chunks) : undefined;
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const response = await handle(new Request(url, { method: req.method, headers: req.headers, body, signal: abort.signal }));
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...CORS });
      if (!response.body) return void res.end();
      const reader = response.body.getReader();
      res.on('close', () => void reader.cancel().catch(() => undefined));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, CORS);
      res.end(String(error));
    }
  };
}

/**
 * `handle` behind the two routes a test drives a server by: /state answers
 * what the server has seen (`state()`), /control?do=… does `control(what)`.
 */
export function withTestRoutes({ state, control }, handle) {
  return async (request) => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/state') return Response.json(state());
    if (pathname === '/control') {
      control(searchParams.get('do'));
      return Response.json({});
    }
    return handle(request);
  };
}

/** `http` listening on `port` (0: any free one) at `host`; resolves to its origin. */
export function listen(http, port, host) {
  return new Promise((resolve) => http.listen(port, host, () => resolve(`http://${host}:${http.address().port}`)));
}

/** Closes `http` and every connection still open to it (SSE streams stay open otherwise). */
export function close(http) {
  return new Promise((done) => {
    http.closeAllConnections();
    http.close(() => done());
  });
}

/** The number after `name` on the command line, else `fallback`. */
export function portArg(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
