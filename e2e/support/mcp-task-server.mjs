// A real MCP server with tools called as tasks (protocol 2025-11-25:
// tools/call with `task`, tasks/get, tasks/result, tasks/cancel), built with
// the official SDK's task runtime (v1's experimental tasks: the v2 SDK has
// none), over Streamable HTTP with sessions and CORS (mcp-transport.mjs,
// http-bridge.mjs), on another origin than the page. Its tasks outlive the session that started them (a single-user
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
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { z } from 'zod';
import { close, listen, portArg, webListener, withTestRoutes } from './http-bridge.mjs';
import { McpSessions } from './mcp-transport.mjs';

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

export async function startMcpTaskServer({ port = 0, host = '127.0.0.1' } = {}) {
  const state = { runs: [], tasks: [], cancelled: [], calls: [] };
  const taskStore = new UnboundTaskStore();
  const taskMessageQueue = new UnboundMessageQueue();
  const sessions = new McpSessions(WebStandardStreamableHTTPServerTransport);

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
    if (what === 'reset' || what === 'forget-sessions') sessions.forget();
  };

  const handleMcp = async (request) => {
    const text = await request.clone().text();
    const body = text ? JSON.parse(text) : undefined;
    if (body?.method === 'tools/call') state.calls.push({ tool: body.params?.name, asTask: body.params?.task !== undefined });
    return sessions.handle(request, newServer, { parsedBody: body });
  };

  const http = createServer(
    webListener(
      withTestRoutes({ state: () => state, control }, (request) =>
        new URL(request.url).pathname === '/mcp' ? handleMcp(request) : new Response(null, { status: 404 }),
      ),
    ),
  );

  const origin = await listen(http, port, host);
  return {
    origin,
    url: `${origin}/mcp`,
    state,
    control,
    close: () => {
      sessions.forget();
      taskStore.cleanup();
      return close(http);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startMcpTaskServer({ port: portArg('--port', 4194) });
  console.log(`MCP task server on ${url}`);
}
