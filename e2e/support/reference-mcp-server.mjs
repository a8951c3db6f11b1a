// The MCP reference server (@modelcontextprotocol/server-everything, the
// official "everything" server) over Streamable HTTP, in a child process, for
// tests that check tabagent against a server it did not write. It can be
// restarted on the same port, as a deployment restarts: the sessions it had
// are forgotten (it answers their ids with HTTP 400). Its HTTP, CORS
// included, is the reference server's own (its `cors()`), not
// http-bridge.mjs's: it runs as it ships, since how it answers is the point.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ENTRY = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** A port free now (the server then takes it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function launch(port) {
  const child = spawn(process.execPath, [ENTRY, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const listen = (chunk) => {
      output += chunk;
      if (output.includes(`listening on port ${port}`)) resolve(child);
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.on('exit', (code) => reject(new Error(`the reference server exited (${code}): ${output}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export async function startReferenceServer({ port } = {}) {
  const at = port ?? (await freePort());
  let child = await launch(at);
  return {
    url: `http://127.0.0.1:${at}/mcp`,
    /** Stop and start again on the same port: every session is forgotten. */
    async restart() {
      await stop(child);
      child = await launch(at);
    },
    close: () => stop(child),
  };
}
