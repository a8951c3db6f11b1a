// A plain static file server for the script-tag tests, which need two origins:
// the page's, and a "CDN" serving the bundle with CORS.
//   node e2e/support/static-server.mjs --port 4176 --root . [--cors] [--rewrite FROM=TO]
// A page asked for with `?csp=…` is served under that Content-Security-Policy
// header (tests of the policies docs/security.md documents).
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
const port = Number(option('port'));
const root = resolve(option('root') ?? '.');
const cors = args.includes('--cors');
const [from, to] = (option('rewrite') ?? '=').split('=');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
  let file = join(root, path);
  if (!file.startsWith(root)) return void response.writeHead(403).end();
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    const headers = { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' };
    if (cors) headers['access-control-allow-origin'] = '*';
    const csp = new URL(request.url, 'http://x').searchParams.get('csp');
    if (csp && extname(file) === '.html') headers['content-security-policy'] = csp;
    if (from && extname(file) === '.html') {
      const html = (await readFile(file, 'utf8')).replaceAll(from, to);
      response.writeHead(200, headers).end(html);
    } else {
      response.writeHead(200, headers);
      createReadStream(file).pipe(response);
    }
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} on http://127.0.0.1:${port}`));
