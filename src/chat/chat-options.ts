// A chat's options (ChatOptions), checked into what it keeps: its settings,
// tools, hooks, context window and run controls; and a send's (SendOptions).
import { InvalidOptionsError } from '../errors/index.js';
import type { GenerationOptions } from '../shared/model.js';
import type { ToolChoice } from '../shared/tool-protocol.js';
import { DEFAULT_MAX_RESULT_CHARS } from '../tools/encode-result.js';
import type { ToolEntry } from '../tools/types.js';
import { checkContextOptions, type ContextOptions } from '../run/context-window.js';
import { checkHooks, type ToolHooks } from '../calls/hooks.js';
import type { ChatSettings } from '../shared/chat.js';
import type { PrepareStep } from '../run/prepare-step.js';
import type { StopCondition } from '../run/stop-conditions.js';
import { ToolSet } from '../calls/tool-set.js';

export interface ChatOptions extends ToolHooks {
  system?: string;
  /** Managed (`tool()`) and raw (`rawTool()`) tools, MCP servers' (`mcpTools()`) and the page's WebMCP tools (`webMcpTools()`); names must be unique (a source's are namespaced on a clash). */
  tools?: ToolEntry[];
  /** Model → tools → model round trips allowed per run (default 5; at least 1: a chat that should not run tools has none). */
  maxToolHops?: number;
  /** Handlers of one turn run at most this many at once (default 1: one after another). */
  maxConcurrentTools?: number;
  /** Default tool choice (default 'auto'). */
  toolChoice?: ToolChoice;
  /** Constrain calls with a grammar (default: on for WebLLM models). */
  grammar?: boolean;
  generation?: GenerationOptions;
  /** Longest tool result, in characters, before it is cut with a visible marker (default 8000). */
  maxResultChars?: number;
  /** How the chat fits the model's context window (default: trim the oldest exchanges). */
  context?: ContextOptions;
  /** End a run early (resolving, with the calls left pending) when any of these holds after a step. Code: given again on open. */
  stopWhen?: StopCondition | StopCondition[];
  /** Change the tools, tool choice, generation or system prompt of the next model call. Code: given again on open. */
  prepareStep?: PrepareStep;
}

/** One send's options (and a run's by hand: runTool, approve, sendToolResults, regenerate), over the chat's. */
export interface SendOptions {
  /** Abort the run: generation stops, running handlers see `ctx.signal` abort, the call rejects with the abort reason. */
  signal?: AbortSignal;
  /** Return every tool call to the caller instead of running managed tools. */
  returnToolRequests?: boolean;
  /** Tool choice for this run's first model call (the chat's default otherwise). */
  toolChoice?: ToolChoice;
  /** Offer only these of the chat's tools (by name) in this run. */
  activeTools?: string[];
  /** Generation settings for this run, over the chat's. */
  generation?: GenerationOptions;
  /** Stop conditions for this run, instead of the chat's. */
  stopWhen?: StopCondition | StopCondition[];
  /** Steer this run's model calls, instead of the chat's prepareStep. */
  prepareStep?: PrepareStep;
}

/** regenerate's options: a run's, and which answer. */
export interface RegenerateOptions extends SendOptions {
  /** The index in `chat.messages` of the answer to write again (a model turn); by default the last message. */
  from?: number;
}

/** How a chat's runs are steered: code, so never stored. */
export interface RunControls {
  stopWhen: StopCondition[];
  prepareStep?: PrepareStep;
}

export function runControls(options: Pick<ChatOptions, 'stopWhen' | 'prepareStep'>, fallback?: RunControls): RunControls {
  const { stopWhen, prepareStep } = options;
  const conditions = stopWhen === undefined ? fallback?.stopWhen ?? [] : Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  if (conditions.some((c) => typeof c !== 'function')) throw new InvalidOptionsError('stopWhen', 'must be a function of the steps, or an array of them');
  if (prepareStep !== undefined && typeof prepareStep !== 'function') throw new InvalidOptionsError('prepareStep', 'must be a function');
  return { stopWhen: conditions, prepareStep: prepareStep ?? fallback?.prepareStep };
}

export function chatSettings(options: ChatOptions): { tools: ToolSet; settings: ChatSettings; hooks: ToolHooks; context: ContextOptions; controls: RunControls } {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('options', 'must be an object');
  if (options.system !== undefined && typeof options.system !== 'string') throw new InvalidOptionsError('system', 'must be a string');
  const tools = new ToolSet(options.tools ?? []);
  const settings: ChatSettings = {
    system: options.system,
    maxToolHops: count(options.maxToolHops, 'maxToolHops', 5, 1),
    maxConcurrentTools: count(options.maxConcurrentTools, 'maxConcurrentTools', 1, 1),
    toolChoice: options.toolChoice ?? 'auto',
    grammar: options.grammar,
    generation: options.generation,
    maxResultChars: count(options.maxResultChars, 'maxResultChars', DEFAULT_MAX_RESULT_CHARS, 100),
  };
  checkContextOptions(options.context);
  const context = options.context ?? {};
  // Stored as plain data: a strategy function is code, given again on open.
  const { strategy, window, reserve } = context;
  const stored = { ...(typeof strategy === 'string' ? { strategy } : {}), ...(window ? { window } : {}), ...(reserve ? { reserve } : {}) };
  if (Object.keys(stored).length) settings.context = stored;
  tools.checkChoice(settings.toolChoice, 'toolChoice');
  if (settings.grammar !== undefined && typeof settings.grammar !== 'boolean') throw new InvalidOptionsError('grammar', 'must be a boolean');
  let hooks: ToolHooks;
  try {
    hooks = checkHooks(options);
  } catch (error) {
    throw new InvalidOptionsError('hooks', (error as Error).message);
  }
  return { tools, settings, hooks, context: { ...settings.context, ...context }, controls: runControls(options) };
}

function count(value: number | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new InvalidOptionsError(name, `must be an integer ≥ ${min}, not ${JSON.stringify(value)}`);
  return value;
}
