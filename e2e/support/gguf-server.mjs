// A file server for GGUFs as hubs serve them, and as connections fail: byte
// ranges (a header read before the download), CORS for a page on another
// origin, and on request a body paced slowly or cut halfway. Each test
// process starts its own on a free port; it logs every request, so a test
// can tell a header read from a whole download.
//
//   GET /<name>             the file, whole or a Range of it
//   GET /<name>?pace=ms     the body in 64 KiB pieces, one every `ms`
//   GET /<name>?cut=0.5     the body's first half, then the connection is destroyed
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';

/** @param {Record<string, string>} files name → path on disk */
export async function startGgufServer(files) {
  /** @type {Array<{ name: string; range: string | null; method: string }>} */
  const requests = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const name = decodeURIComponent(url.pathname.slice(1));
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', 'Range');
    response.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, ETag');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const path = files[name];
    requests.push({ name, range: request.headers.range ?? null, method: request.method ?? 'GET' });
    if (!path) return void response.writeHead(404).end('not found');
    const size = statSync(path).size;
    let start = 0;
    let end = size - 1;
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (range) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      response.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': end - start + 1, 'Accept-Ranges': 'bytes' });
    } else {
      response.writeHead(200, { 'Content-Length': size, 'Accept-Ranges': 'bytes', 'Content-Type': 'application/octet-stream' });
    }
    if (request.method === 'HEAD') return void response.end();
    const pace = Number(url.searchParams.get('pace') ?? 0);
    const cut = Number(url.searchParams.get('cut') ?? 0);
    const stream = createReadStream(path, { start, end, highWaterMark: 64 * 1024 });
    let sent = 0;
    const limit = cut > 0 ? Math.floor((end - start + 1) * cut) : Infinity;
    stream.on('data', (chunk) => {
      if (sent + chunk.length > limit) {
        response.write(chunk.subarray(0, limit - sent));
        stream.destroy();
        // A connection dropped mid-body: the browser sees the body end in an error.
        setTimeout(() => response.socket?.destroy(), 50);
        return;
      }
      sent += chunk.length;
      response.write(chunk);
      if (pace > 0) {
        stream.pause();
        setTimeout(() => stream.resume(), pace);
      }
    });
    stream.on('end', () => response.end());
    request.on('close', () => stream.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    /** Whole-body GETs of `name` (a download), as against ranged header reads. */
    downloads: (name) => requests.filter((r) => r.name === name && r.method === 'GET' && (r.range === null || /^bytes=0-$/.test(r.range))).length,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
