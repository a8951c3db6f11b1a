// One MCP server, as a source of tools: a client session (the SDK's, over
// Streamable HTTP), its current tools as managed tools, and the chats that
// listen for changes to them. Loaded on demand by mcp-tools.ts.
// One class of about 350 lines, kept whole: calls, tasks and reconnects all
// go through the one session (#onSession's retry, the client, the progress
// of tasks), which a split would have to hand around.
//
// How a call settles:
// - the tool's result, or its `isError` text as McpToolError ('tool');
// - a server that forgot the session (it restarted, or expired it: HTTP 404
//   as the spec asks, 400 as the reference server answers) gets one new
//   session and the call once more: the request never ran. refresh() too;
// - with `oauth`, a server whose last sign-ins never made its calls go
//   through is not sent the page again: McpAuthError ('attempts');
// - anything else the SDK throws becomes McpToolError ('protocol' or
//   'connection'); the next call tries the server again;
// - an abort or the tool's timeout aborts the request, and the SDK sends
//   MCP's cancellation to the server.
import { Client, ProtocolError, StreamableHTTPClientTransport, specTypeSchemas, type CallToolResult, type GetTaskResult, type OAuthClientProvider, type ProgressNotification, type Tool as McpToolDefinition } from './sdk.js';
import { InvalidOptionsError, McpConnectionError, McpToolError, isMcpAuthError, isMcpToolError } from '../../errors/index.js';
import { untilAborted } from '../../shared/until-aborted.js';
import { wait } from '../../shared/wait.js';
import { checkCallOptions } from '../../tools/define-tool.js';
import { toToolName } from '../../tools/tool-names.js';
import type { Tool } from '../../tools/types.js';
import { ListedTools } from '../listed-tools.js';
import { failureOf, sessionGone } from './mcp-failure.js';
import { elicitationHandler } from './mcp-elicitation.js';
import { IndexedDbOAuthProvider } from './mcp-oauth-provider.js';
import { mcpTool, mcpToolInfo, type CallOptions, type KeptTask, type ToolCaller } from './mcp-tool.js';
import type { McpServerTools, McpToolsOptions } from './mcp-types.js';

const CONNECT_TIMEOUT_MS = 30_000;

/** `mcpTools(url, options)`: the options checked, then the server connected. */
export async function serverTools(url: string | URL, options: McpToolsOptions): Promise<McpServerTools> {
  let at: URL;
  try {
    at = new URL(url, globalThis.location?.href);
  } catch {
    throw new InvalidOptionsError('url', `must be a URL, not ${JSON.stringify(String(url))}`);
  }
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('options', 'must be an object');
  checkCallOptions('', options);
  const { connectTimeoutMs } = options;
  if (connectTimeoutMs !== undefined && !(connectTimeoutMs > 0)) throw new InvalidOptionsError('connectTimeoutMs', 'must be a positive number of milliseconds');
  if (options.elicit !== undefined && typeof options.elicit !== 'function') throw new InvalidOptionsError('elicit', 'must be a function');
  if (options.oauth !== undefined) {
    if (options.authProvider) throw new InvalidOptionsError('oauth', 'cannot be given with authProvider');
    if (!URL.canParse(String(options.oauth?.redirectUrl), globalThis.location?.href)) throw new InvalidOptionsError('oauth.redirectUrl', 'must be a URL');
    const { clientMetadataUrl } = options.oauth;
    if (clientMetadataUrl !== undefined && !(URL.canParse(clientMetadataUrl) && new URL(clientMetadataUrl).protocol === 'https:')) throw new InvalidOptionsError('oauth.clientMetadataUrl', 'must be an https URL');
  }
  const server = new McpServer(at, options);
  await server.start();
  return server;
}

class McpServer implements McpServerTools, ToolCaller {
  readonly kind = 'source';
  readonly url: string;
  server = { name: '', version: '' };
  instructions?: string;
  namespace = '';
  readonly #offered = new ListedTools();
  readonly #options: McpToolsOptions;
  readonly #endpoint: URL;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  /** Progress of calls made as tasks, by the progress token each was given (it outlives the request). */
  readonly #taskProgress = new Map<string, CallOptions['onprogress']>();
  /** Sessions opened so far: a later one may offer other tools. */
  #sessions = 0;
  #closed = false;

  /** tabagent's own OAuth provider (`oauth`), if the app gave none of its own. */
  readonly #authProvider: IndexedDbOAuthProvider | undefined;

  constructor(url: URL, options: McpToolsOptions) {
    this.#endpoint = url;
    this.url = url.href;
    this.#options = options;
    this.#authProvider = options.oauth && !options.authProvider ? new IndexedDbOAuthProvider(this.url, options.oauth) : undefined;
  }

  get tools(): readonly Tool[] {
    return this.#offered.tools;
  }

  subscribe(listener: () => void): () => void {
    return this.#offered.subscribe(listener);
  }

  async start(): Promise<void> {
    let client: Client;
    try {
      client = await this.#live(this.#options.signal);
      await this.#list(client);
    } catch (error) {
      await this.close();
      if (this.#options.signal?.aborted) throw this.#options.signal.reason;
      if (isMcpAuthError(error)) throw error;
      const { detail, httpStatus } = failureOf(error);
      throw new McpConnectionError({ serverUrl: this.url, detail, httpStatus, unauthorized: httpStatus === 401, cause: error });
    }
    await this.#authProvider?.connected();
    const info = client.getServerVersion();
    this.server = { name: info?.name ?? '', version: info?.version ?? '' };
    this.instructions = client.getInstructions();
    this.namespace = toToolName(this.#options.namespace ?? (this.server.name || this.#endpoint.hostname));
  }

  async refresh(): Promise<void> {
    try {
      await this.#onSession((client) => this.#list(client));
    } catch (error) {
      if (this.#closed) throw new McpConnectionError({ serverUrl: this.url, detail: 'the session was closed (McpServerTools.close)', unauthorized: false });
      const { detail, httpStatus } = failureOf(error);
      throw new McpConnectionError({ serverUrl: this.url, detail, httpStatus, unauthorized: httpStatus === 401, cause: error });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    this.#setTools([]);
    if (client) {
      // Tell the server the session is over (a server may refuse: 405).
      await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    }
  }

  get takesTasks(): boolean {
    return Boolean(this.#client?.getServerCapabilities()?.tasks?.requests?.tools?.call);
  }

  async call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    try {
      // The SDK's own timeout only backs up the tool's (which aborts the signal first).
      return await this.#answered(await this.#onSession((client) => client.callTool({ name, arguments: args }, { signal: options.signal, onprogress: options.onprogress, timeout: options.timeoutMs + 1000 }) as Promise<CallToolResult>, options.signal));
    } catch (error) {
      throw this.#callError(name, error, options.signal);
    }
  }

  /**
   * A call made as a task (MCP 2025-11-25): the server answers with the
   * task at once, kept (`keep`) before the wait, then polled (tasks/get,
   * its status messages as progress) until it ends or asks for input, and
   * its result fetched (tasks/result, whose stream carries what the server
   * sends meanwhile). An abort or a timeout cancels it (tasks/cancel).
   */
  async callTask(name: string, args: Record<string, unknown>, options: CallOptions & { keep?: (state: KeptTask) => Promise<void> }): Promise<CallToolResult> {
    // A token of our own: the task's progress outlives the request that started it.
    const progressToken = `tabagent-task-${crypto.randomUUID()}`;
    this.#taskProgress.set(progressToken, options.onprogress);
    try {
      // Once: a request refused for a forgotten session never ran, and one that ran started a task.
      const { task } = await this.#onSession(
        (client) => client.request({ method: 'tools/call', params: { name, arguments: args, task: {}, _meta: { progressToken } } }, specTypeSchemas.CreateTaskResult, { signal: options.signal, timeout: options.timeoutMs + 1000 }),
        options.signal,
      );
      try {
        await options.keep?.({ mcpTask: { serverUrl: this.url, taskId: task.taskId, progressToken } });
      } catch (error) {
        // Not kept, so it could not be found again after a reload: not left running.
        void this.#cancelTask(task.taskId);
        throw error;
      }
      return await this.#answered(await this.#awaitTask(task, options));
    } catch (error) {
      throw this.#callError(name, error, options.signal);
    } finally {
      this.#taskProgress.delete(progressToken);
    }
  }

  async resumeTask(name: string, kept: KeptTask['mcpTask'], options: CallOptions): Promise<CallToolResult> {
    if (kept.serverUrl !== this.url) {
      throw new McpToolError({ serverUrl: this.url, toolName: name, failure: 'protocol', detail: `the call's task ${kept.taskId} was started on ${kept.serverUrl}, not this server` });
    }
    this.#taskProgress.set(kept.progressToken, options.onprogress);
    try {
      return await this.#answered(await this.#awaitTask({ taskId: kept.taskId }, options));
    } catch (error) {
      throw this.#callError(name, error, options.signal);
    } finally {
      this.#taskProgress.delete(kept.progressToken);
    }
  }

  async #awaitTask(started: Partial<GetTaskResult> & { taskId: string }, options: CallOptions): Promise<CallToolResult> {
    const { taskId } = started;
    const { signal } = options;
    const timeout = options.timeoutMs + 1000;
    try {
      let task = started.status ? started : undefined;
      let said = started.statusMessage;
      while (!task || task.status === 'working') {
        if (task) await wait(Math.min(Math.max(task.pollInterval ?? 1000, 50), 5000), signal);
        try {
          task = await this.#onSession((client) => client.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult, { signal, timeout }), signal);
        } catch (error) {
          if (!ProtocolError.isInstance(error)) throw error;
          throw new TaskGone(`the task ${taskId} is gone (the server says: ${error.message})`, error);
        }
        if (task.statusMessage && task.statusMessage !== said) options.onstatus((said = task.statusMessage));
      }
      if (task.status === 'cancelled') throw new TaskGone(`the task ${taskId} was cancelled${task.statusMessage ? ` (${task.statusMessage})` : ''}`);
      // Ended, or waiting for input: the result, once there, with what the server asks meanwhile on its stream.
      return (await this.#onSession((client) => client.request({ method: 'tasks/result', params: { taskId } }, specTypeSchemas.CallToolResult, { signal, timeout }), signal)) as CallToolResult;
    } catch (error) {
      if (signal.aborted) void this.#cancelTask(taskId);
      throw error;
    }
  }

  /**
   * The server answered a call: with tabagent's OAuth, the sign-ins it asked
   * for did their job. Bookkeeping only: it never costs the call its result.
   */
  async #answered(result: CallToolResult): Promise<CallToolResult> {
    await this.#authProvider?.called().catch(() => undefined);
    return result;
  }

  /** Best effort: the server is told to stop the task. */
  async #cancelTask(taskId: string): Promise<void> {
    await this.#client?.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, { timeout: 10_000 }).catch(() => undefined);
  }

  #callError(name: string, error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) return signal.reason;
    // No sign-in will help (MCP_AUTH_FAILED, 'attempts'): said as such, not as one more failed call.
    if (isMcpToolError(error) || isMcpAuthError(error)) return error;
    if (this.#closed) return new McpToolError({ serverUrl: this.url, toolName: name, failure: 'connection', detail: 'the session was closed (McpServerTools.close)' });
    if (error instanceof TaskGone) return new McpToolError({ serverUrl: this.url, toolName: name, failure: 'protocol', detail: error.message, ...(error.rpcCode !== undefined ? { rpcCode: error.rpcCode } : {}), cause: error.cause });
    return new McpToolError({ serverUrl: this.url, toolName: name, ...failureOf(error), cause: error });
  }

  /**
   * `work` on the session. A server that forgot the session (it restarted, or
   * expired it) refuses the request before running it, so a new session is
   * asked for and the work done once more.
   */
  async #onSession<T>(work: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // The connect is shared by every call waiting on it: each stops waiting on its own abort only.
      const client = await (signal ? untilAborted(this.#live(), signal) : this.#live());
      const hadSession = (client.transport as StreamableHTTPClientTransport | undefined)?.sessionId !== undefined;
      try {
        return await work(client);
      } catch (error) {
        if (attempt === 1 && hadSession && !this.#closed && !signal?.aborted && sessionGone(error)) {
          this.#forget(client);
          continue;
        }
        throw error;
      }
    }
  }

  /** The session, or a new one. */
  #live(signal?: AbortSignal): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error('closed'));
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect(signal).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(signal?: AbortSignal): Promise<Client> {
    const { headers, token, fetch } = this.#options;
    const authProvider = this.#options.authProvider ?? this.#authProvider;
    const { elicit } = this.#options;
    const client = new Client(
      { name: 'tabagent', version: '1' },
      {
        // Only what the app can answer: a server that may ask for input learns it can only if the app gave `elicit`.
        capabilities: elicit ? { elicitation: { form: {}, url: {} } } : {},
        listChanged: {
          tools: {
            debounceMs: 50,
            // A list that could not be fetched leaves the one before.
            onChanged: (error, tools) => {
              if (!error && tools && this.#client === client) this.#setTools(tools);
            },
          },
        },
      },
    );
    const transport = new StreamableHTTPClientTransport(this.#endpoint, {
      ...(headers ? { requestInit: { headers } } : {}),
      // The app's provider is the SDK's own type; tabagent's types only name it loosely (McpAuthProvider).
      ...(authProvider ? { authProvider: authProvider as unknown as OAuthClientProvider } : token !== undefined ? { authProvider: { token: async () => (typeof token === 'function' ? await token() : token) } } : {}),
      ...(fetch ? { fetch } : {}),
    });
    if (elicit) client.setRequestHandler('elicitation/create', elicitationHandler(this.url, elicit));
    // Progress of a task comes after its request ended, under the token tabagent gave it: the
    // SDK knows only tokens of requests in flight, so those go to it and the rest to their task.
    const sdkProgress = (client as unknown as { _onprogress?: (notification: ProgressNotification) => void })._onprogress;
    if (typeof sdkProgress === 'function') {
      client.setNotificationHandler('notifications/progress', (notification) => {
        const task = this.#taskProgress.get(String(notification.params.progressToken));
        if (task) task(notification.params);
        else sdkProgress.call(client, notification);
      });
    }
    client.onclose = () => this.#forget(client);
    // The standing stream's troubles (the SDK reconnects it); calls report their own.
    client.onerror = () => undefined;
    const reconnecting = this.#sessions++ > 0;
    await client.connect(transport, { signal, timeout: this.#options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS });
    if (this.#closed) {
      await client.close().catch(() => undefined);
      throw new Error('closed');
    }
    this.#client = client;
    // A new session after a lost one: the server may offer other tools now.
    if (reconnecting) void this.#list(client).catch(() => undefined);
    return client;
  }

  #forget(client: Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    void client.close().catch(() => undefined);
  }

  async #list(client: Client): Promise<void> {
    const { tools } = await client.listTools();
    if (this.#client === client) this.#setTools(tools);
  }

  #setTools(definitions: readonly McpToolDefinition[]): void {
    const { filter } = this.#options;
    const offered = filter ? definitions.filter((d) => filter(mcpToolInfo(d))) : definitions;
    this.#offered.set(offered, (d) => d.name, (definition, name) => mcpTool(definition, name, this, this.#options));
  }
}

/** A task the server no longer has (or cancelled elsewhere): the call cannot end as the task would have. */
class TaskGone extends Error {
  readonly rpcCode?: number;
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    if (ProtocolError.isInstance(cause)) this.rpcCode = cause.code;
  }
}
