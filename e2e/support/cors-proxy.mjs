// An HTTP forward proxy that adds CORS to the answers of the servers it is
// told to, for a browser (launched with it as its proxy) to reach servers
// that send none, such as the MCP conformance suite's scenario servers. A
// real deployment of such a server must send these headers itself. URLs stay
// as they are (OAuth's issuer and resource checks compare them), answers
// stream through as they come (SSE), and preflights are answered here. The
// headers are the test servers' (http-bridge.mjs), but for two things: the
// page's own origin is named rather than `*`, and a preflight is allowed the
// headers it asks for, since a scenario may send any.
import { createServer, request as forward } from 'node:http';
import { corsHeaders } from './http-bridge.mjs';

/** `hosts`: the hostnames whose answers get CORS (others pass untouched). */
export function startCorsProxy({ hosts = ['localhost'] } = {}) {
  const sockets = new Set();
  const server = createServer((req, res) => {
    let target;
    try {
      target = new URL(req.url);
    } catch {
      return void res.writeHead(400).end('a proxy takes absolute URLs');
    }
    const origin = req.headers.origin;
    const cors = origin && hosts.includes(target.hostname) && new URL(origin).host !== target.host
      ? { ...corsHeaders({ origin, allowHeaders: req.headers['access-control-request-headers'] ?? '*' }), vary: 'origin' }
      : undefined;
    if (cors && req.method === 'OPTIONS' && req.headers['access-control-request-method']) return void res.writeHead(204, cors).end();
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    const out = forward(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, { ...answer.headers, ...cors });
      res.flushHeaders();
      answer.pipe(res);
    });
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, cors).end(String(error));
      else res.destroy();
    });
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
