// A real MCP server with tools called as tasks (protocol 2025-11-25:
// tools/call with `task`, tasks/get, tasks/result, tasks/cancel), built with
// the official SDK's task runtime (v1's experimental tasks: the v2 SDK has
// none), over Streamable HTTP with sessions and CORS, on another origin than
// the page. Its tasks outlive the session that started them (a single-user
// server without authorization: a task is found by its id alone, as MCP
// allows where tasks cannot be bound to an authorization context), so a page
// that reloads can wait for the task it started.
//   node e2e/support/mcp-task-server.mjs --port 4194
// Tools:
//   render   (taskSupport 'required') works `steps` steps of `stepMs`, each
//            a progress notification and a status message; ends "rendered <scene>"
//   lookup   (taskSupport 'optional') answers at once, as a task or not
//   explode  (taskSupport 'required') fails (isError) after one step
// Endpoints: /mcp, /state (GET: tool runs, tasks started, cancelled, each
// tools/call and whether it asked for a task), /control (POST ?do=reset,
// ?do=forget-sessions).
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { z } from 'zod';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
  'access-control-max-age': '600',
};

/** The SDK's store and queue, with tasks bound to no session (see above). */
class UnboundTaskStore extends InMemoryTaskStore {
  createTask(params, requestId, request) { return super.createTask(params, requestId, request); }
  getTask(taskId) { return super.getTask(taskId); }
  storeTaskResult(taskId, status, result) { return super.storeTaskResult(taskId, status, result); }
  getTaskResult(taskId) { return super.getTaskResult(taskId); }
  updateTaskStatus(taskId, status, message) { return super.updateTaskStatus(taskId, status, message); }
  listTasks(cursor) { return super.listTasks(cursor); }
}
class UnboundMessageQueue extends InMemoryTaskMessageQueue {
  enqueue(taskId, message, _sessionId, maxSize) { return super.enqueue(taskId, message, undefined, maxSize); }
  dequeue(taskId) { return super.dequeue(taskId); }
  dequeueAll(taskId) { return super.dequeueAll(taskId); }
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const terminal = (status) => status === 'completed' || status === 'failed' || status === 'cancelled';

export function startMcpTaskServer({ port = 0, host = '127.0.0.1' } = {}) {
  const state = { runs: [], tasks: [], cancelled: [], calls: [] };
  const taskStore = new UnboundTaskStore();
  const taskMessageQueue = new UnboundMessageQueue();
  const sessions = new Map();

  /** The work behind a render task: goes on whoever waits, stops when the task is cancelled. */
  async function work(server, taskId, { scene, steps, stepMs, fail }, progressToken) {
    for (let step = 1; step <= steps; step++) {
      await wait(stepMs);
      const task = await taskStore.getTask(taskId);
      if (!task || terminal(task.status)) {
        if (task?.status === 'cancelled') state.cancelled.push({ taskId, scene, at: step });
        return;
      }
      await taskStore.updateTaskStatus(taskId, 'working', `step ${step} of ${steps}`);
      if (progressToken !== undefined) {
        await server.server.notification({ method: 'notifications/progress', params: { progressToken, progress: step, total: steps, message: `step ${step}` } }, { relatedTask: { taskId } }).catch(() => undefined);
      }
      if (fail) {
        await taskStore.storeTaskResult(taskId, 'failed', { isError: true, content: [{ type: 'text', text: `the renderer crashed on ${scene}` }] });
        return;
      }
    }
    state.runs.push({ tool: 'render', scene });
    await taskStore.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text: `rendered ${scene}` }] });
  }

  const newServer = () => {
    const server = new McpServer(
      { name: 'renders', version: '1.0.0' },
      { capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue },
    );
    const taskTool = (name, description, fail) =>
      server.experimental.tasks.registerToolTask(
        name,
        { description, inputSchema: { scene: z.string(), steps: z.number().int().optional(), stepMs: z.number().int().optional() }, execution: { taskSupport: 'required' }, annotations: { readOnlyHint: true } },
        {
          createTask: async ({ scene, steps = 3, stepMs = 100 }, extra) => {
            const task = await extra.taskStore.createTask({ ttl: 10 * 60_000, pollInterval: 50 });
            state.tasks.push({ taskId: task.taskId, tool: name, scene });
            void work(server, task.taskId, { scene, steps, stepMs, fail }, extra._meta?.progressToken);
            return { task };
          },
          getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
          getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
        },
      );
    taskTool('render', 'Render a scene (a long job)', false);
    taskTool('explode', 'A job that fails', true);
    server.experimental.tasks.registerToolTask(
      'lookup',
      { description: 'Look a word up', inputSchema: { word: z.string() }, execution: { taskSupport: 'optional' }, annotations: { readOnlyHint: true } },
      {
        createTask: async ({ word }, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
          await extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `${word}: a word` }] });
          return { task };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
      },
    );
    return server;
  };

  const control = (what) => {
    if (what === 'reset') Object.assign(state, { runs: [], tasks: [], cancelled: [], calls: [] });
    if (what === 'reset' || what === 'forget-sessions') {
      for (const { transport } of sessions.values()) void transport.close();
      sessions.clear();
    }
  };

  const http = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, `http://${req.headers.host}`);
      if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
      if (url.pathname === '/state') return void res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify(state));
      if (url.pathname === '/control') {
        control(url.searchParams.get('do'));
        return void res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end('{}');
      }
      if (url.pathname !== '/mcp') return void res.writeHead(404, CORS).end();
      for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      if (body?.method === 'tools/call') state.calls.push({ tool: body.params?.name, asTask: body.params?.task !== undefined });
      const id = req.headers['mcp-session-id'];
      if (id) {
        const session = sessions.get(id);
        if (!session) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return void (await session.transport.handleRequest(req, res, body));
      }
      const server = newServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, { transport, server }),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, CORS);
      res.end(String(error));
    }
  });

  return new Promise((resolve) => {
    http.listen(port, host, () => {
      const origin = `http://${host}:${http.address().port}`;
      resolve({
        origin,
        url: `${origin}/mcp`,
        state,
        control,
        close: () =>
          new Promise((done) => {
            for (const { transport } of sessions.values()) void transport.close();
            taskStore.cleanup();
            http.closeAllConnections();
            http.close(() => done());
          }),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--port');
  const { url } = await startMcpTaskServer({ port: at > 0 ? Number(process.argv[at + 1]) : 4194 });
  console.log(`MCP task server on ${url}`);
}
