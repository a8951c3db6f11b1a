// The model seam: the loop talks to a ChatModel and never knows whether it is
// WebLLM in a worker, the fake model, or something a test made up.
import type { JsonObject, JsonSchema } from './json.js';
import type { EncodedToolResult, ModelFamily, ParsedCall, ToolChoice, ToolDeclaration } from './tool-protocol.js';

/** A conversation message in the runtime's own terms; the codec renders it for the model. */
export type ModelMessage =
  | { role: 'user'; content: string }
  /**
   * A turn this engine's model wrote: `raw` is exactly what it produced,
   * markup included, so replaying it keeps the KV cache valid. The only
   * assistant text the model reads as markup. `text` and `calls` are the
   * same turn as data, for an engine that reads no markup (a server model).
   */
  | { role: 'assistant'; raw: string; text?: string; calls?: ForeignTurn['calls'] }
  | ForeignTurn
  | { role: 'tool'; results: EncodedToolResult[] };

/**
 * A turn that looks like the model's but that this engine did not write
 * (another model's reply in an AI SDK history, the app's in
 * `agent.generate({ messages })`, an imported chat's): the worker writes it
 * in the family's call format from its text and calls, both data (their
 * control tokens broken), never from a raw it may carry.
 */
export interface ForeignTurn {
  role: 'assistant';
  text: string;
  calls: Array<{ name: string; arguments: JsonObject }>;
}

export interface GenerationOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** For models that think (Qwen3): `false` skips the think block. Templates that open it themselves (Qwen3.5's) always think. */
  thinking?: boolean;
  /**
   * Strings that end the reply where the model writes one, as WebLLM and
   * llama.cpp apply them: to all it writes (a think block and call markup
   * too), the sequence itself left out, finishReason 'stop'. None may be empty.
   */
  stopSequences?: string[];
}

export interface ModelRequest {
  system?: string;
  /**
   * The system prompt is not the app's but came with a chat file (an
   * imported chat's): data, its control tokens broken like a user's.
   */
  foreignSystem?: boolean;
  messages: ModelMessage[];
  tools: readonly ToolDeclaration[];
  toolChoice: ToolChoice;
  /** Constrain calls with a grammar; undefined means the model's default. */
  grammar?: boolean;
  generation?: GenerationOptions;
  /**
   * The reply must be one JSON value that matches this schema; no tool calls
   * are read. Tools stay declared in the system prompt all the same, so the
   * prompt prefix (and WebLLM's KV cache) stays that of the chat's other requests.
   */
  output?: { schema: JsonSchema };
  /**
   * When the chat began (ms since the epoch). A GGUF's template that prints
   * today's date (Llama 3.x's `strftime_now`) prints this day, so the
   * prompt's prefix, and the KV cache, stay the same all chat long.
   */
  date?: number;
}

/**
 * Why a turn ended: `'stop'` the model finished; `'length'` the token limit
 * cut it off; `'abort'` it was stopped (a signal, or the tab closed while it
 * streamed); `'error'` the model failed mid-reply (a lost GPU device, a
 * crashed worker, an engine error). After `'abort'` and `'error'` the text is
 * what had been shown, and the turn has no calls.
 */
export type FinishReason = 'stop' | 'length' | 'abort' | 'error';

export interface ModelUsage {
  /** Prompt tokens the model had to read: those its KV cache did not hold. */
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the KV cache already held, so not read again (where the engine counts them: wllama). */
  cachedTokens?: number;
  prefillTokensPerSecond?: number;
  decodeTokensPerSecond?: number;
}

export interface ModelResponse {
  /** The model's output, byte for byte. */
  raw: string;
  /**
   * The engine wrote no markup (a server model: its calls came as data):
   * the turn is stored foreign, so every engine reads it from its text and
   * calls, in its own format.
   */
  foreign?: true;
  text: string;
  reasoning: string;
  calls: ParsedCall[];
  finishReason: FinishReason;
  usage: ModelUsage;
}

export interface LoadProgress {
  /** 0…1, over the whole load. */
  progress: number;
  /** What the engine says it is doing (WebLLM's own words). */
  text: string;
  timeElapsedSeconds: number;
  /** `'download'`: fetching weights (or reading them from the cache); `'compile'`: GPU shaders; `'load'`: weights onto the GPU. */
  phase: 'download' | 'compile' | 'load';
  /** Bytes of weights fetched so far, and in all, as the model's manifest counts them (when known). */
  loaded?: number;
  total?: number;
  /** Download speed over the last seconds (when downloading). */
  bytesPerSecond?: number;
}

/** What runs the model: WebLLM on WebGPU, wllama (llama.cpp in WebAssembly) on the CPU, or the scripted fake. */
/**
 * Which engine answers: WebLLM (WebGPU) or wllama (llama.cpp on the CPU) in a
 * worker, the strict fake, Chrome's built-in model (the Prompt API), or a
 * server model through an AI SDK provider.
 */
export type EngineName = 'webllm' | 'wllama' | 'fake' | 'prompt-api' | 'server';

/**
 * Where the engine runs: a worker of this page's own, a SharedWorker every
 * tab of the origin shares, or the page itself (the Prompt API exists only
 * there, and a server model needs no worker).
 */
export type EngineHost = 'worker' | 'shared-worker' | 'page';

export interface ModelInfo {
  modelId: string;
  /**
   * The tool-call format the model is spoken to in. Absent for a GGUF whose
   * chat template writes no call markup (Gemma 3's, SmolLM2's) when no
   * `family` was passed: chats without tools run, a request with tools is
   * refused with InvalidOptionsError (`option: 'family'`).
   */
  family?: ModelFamily;
  /** The MLC conversation template the model's prompts are rendered with; `'gguf'` for a GGUF model's own chat template; a server model's provider (e.g. `'openai.chat'`), which renders its own. */
  template: string;
  engine: EngineName;
  /** Where the engine runs. */
  host: EngineHost;
  /** Why the engine runs in a worker of this page's own though `shared` asked for one every tab shares. */
  notShared?: string;
  /** CPU threads the engine runs on (wllama: more than 1 only where the page is cross-origin isolated). */
  threads?: number;
  /** Tokens the model's KV cache holds: prompt and reply together. */
  contextWindow: number;
  /** Whether requests are grammar-constrained when the chat does not say. */
  grammarByDefault: boolean;
  /** Set when the model's own mlc-chat-config.json names another conversation template than tabagent's model table (or one tabagent does not know). */
  templateMismatch?: TemplateMismatch;
}

/**
 * A WebLLM model's mlc-chat-config.json (what WebLLM renders its prompts
 * with) names another `conv_template` than tabagent's model table: the
 * config's wins, and `used` says what the model runs with.
 */
export interface TemplateMismatch {
  /** The template the model's config names. */
  config: string;
  /** tabagent has that template's text. When not, the table's template and family are kept: tabagent cannot tell what fits one it does not know. */
  known: boolean;
  /** What tabagent's model table says of this model id. */
  table: { template: string; family: ModelFamily };
  /** What the model runs with. */
  used: { template: string; family: ModelFamily };
  /** All of the above in a sentence, for a log or a notice. */
  message: string;
}

/**
 * The model as the writer of a turn: its engine, its id, and the template and
 * call format it is spoken to in. A turn's raw output is markup only to the
 * model that wrote it, spoken to the same way; to any other (after
 * `agent.load`, or another model of one AI SDK provider) its characters are
 * data, or a control token another model wrote as plain text would reach
 * this one as a real one.
 */
export function modelWriter(info: Pick<ModelInfo, 'engine' | 'modelId' | 'template' | 'family'>): string {
  return JSON.stringify([info.engine, info.modelId, info.template, info.family ?? null]);
}

/**
 * The model can be given tools: it has a call format tabagent writes and
 * reads (`family`), or it is a server model, whose provider takes tools and
 * gives calls as data.
 */
export function readsCalls(info: Pick<ModelInfo, 'family' | 'engine'>): boolean {
  return info.family !== undefined || info.engine === 'server';
}

/**
 * A call as the model writes it, before it is known whole: provisional. Each
 * `start` is followed by its `delta`s and one `end`. `index` numbers the
 * calls seen in one generation. The deltas join into the call's arguments as
 * compact JSON (JSON.stringify's text of the arguments it ends with, unless
 * reading the call needed mending the model's JSON; the response's call is
 * what counts). `call`: the call's place in the response's `calls`, or null
 * when what was written is no call after all (prose, or cut by an abort).
 */
export type CallInputEvent =
  | { type: 'start'; index: number; name: string }
  | { type: 'delta'; index: number; delta: string }
  | { type: 'end'; index: number; call: number | null };

export interface GenerateOptions {
  signal?: AbortSignal;
  /** Visible text as the model writes it; never includes call text. */
  onText?: (delta: string) => void;
  /** Reasoning (a think block) as the model writes it. */
  onReasoning?: (delta: string) => void;
  /** Calls as the model writes them (provisional: see CallInputEvent). */
  onCallInput?: (event: CallInputEvent) => void;
}

export interface ChatModel {
  /** The model; may throw while none is loaded (see `ready`). */
  readonly info: ModelInfo;
  /** Resolves once the model can generate (an agent's model may still be loading); rejects when it cannot. */
  ready?(signal?: AbortSignal): Promise<unknown>;
  generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse>;
}
