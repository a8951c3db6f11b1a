// From a chat to a run: what the run offers and how (RunPlan), checked
// before anything is written, then the run itself on the chat's state (the
// LoopContext run/loop.ts takes). chat-send.ts and tool-answers.ts start
// their runs here; all three work on the parts chat.ts holds (ChatCore).
import { InvalidOptionsError } from '../errors/index.js';
import type { ChatModel, GenerationOptions } from '../shared/model.js';
import type { ToolChoice } from '../shared/tool-protocol.js';
import type { JsonSchema } from '../shared/json.js';
import type { ChatMessage, ChatSettings, Reply } from '../shared/chat.js';
import type { Tool } from '../tools/types.js';
import type { ToolHooks } from '../calls/hooks.js';
import type { ToolSet } from '../calls/tool-set.js';
import type { StreamPart } from '../run/chat-stream.js';
import type { ContextWindow } from '../run/context-window.js';
import { activeSubset } from '../run/prepare-step.js';
import type { RunEvents } from '../run/run-events.js';
import type { ChatEvents } from './chat-events.js';
import { runControls, type RunControls, type SendOptions } from './chat-options.js';
import type { ChatState } from './chat-state.js';
import { lazyImport } from '../shared/lazy-import.js';

/** A chat's working parts: chat.ts holds them, and its helpers work on them. */
export interface ChatCore {
  readonly id: string;
  readonly state: ChatState;
  readonly model: ChatModel;
  /** The chat's tools now: setTools, or a source's new list, replaces them for the runs after. */
  tools: ToolSet;
  readonly settings: ChatSettings;
  readonly hooks: ToolHooks;
  readonly controls: RunControls;
  readonly window: ContextWindow;
  emit<K extends keyof ChatEvents>(type: K, event: ChatEvents[K]): void;
  /** Tools whose schema warnings this chat has told of. */
  readonly warned: WeakSet<Tool>;
}

/** @internal A run told as stream parts (for tabagent/ai-sdk, and a chat tool's progress). */
export type PartListener = (part: StreamPart) => void;

export interface RunPlan {
  tools: ToolSet;
  toolChoice: ToolChoice;
  generation?: GenerationOptions;
  controls: RunControls;
  output?: { schema: JsonSchema };
}

/** A run's tools, tool choice and generation, checked before anything is written. */
export function planRun(core: ChatCore, options: SendOptions): RunPlan {
  const { settings } = core;
  const tools = options.activeTools === undefined ? core.tools : activeSubset(core.tools, options.activeTools, 'activeTools');
  const toolChoice = options.toolChoice ?? settings.toolChoice;
  // The chat's default choice may name a tool this run leaves out: then the model chooses.
  const choice = options.toolChoice === undefined && typeof toolChoice === 'object' && !tools.get(toolChoice.name) ? 'auto' : toolChoice;
  tools.checkChoice(choice, 'toolChoice');
  if (options.generation !== undefined && (typeof options.generation !== 'object' || options.generation === null)) throw new InvalidOptionsError('generation', 'must be an object');
  const generation = options.generation ? { ...settings.generation, ...options.generation } : settings.generation;
  return { tools, toolChoice: choice, generation, controls: runControls(options, core.controls) };
}

/** `chain`: the runs waiting on this one (this chat run as a tool). */
export async function runChat(core: ChatCore, options: SendOptions, plan: RunPlan, onPart?: PartListener, chain: readonly string[] = []): Promise<Reply> {
  warnOf(core, plan.tools);
  const { runLoop } = await loadRun();
  const { state } = core;
  return runLoop(
    {
      model: core.model,
      settings: core.settings,
      hooks: core.hooks,
      messages: state.messages,
      commit: (messages, pending) => state.commit(messages, pending),
      saveDraft: (text) => state.saveDraft(text),
      window: core.window,
      emit: (type, event) => core.emit<keyof RunEvents>(type, event),
      newCallId,
    },
    {
      signal: options.signal ?? new AbortController().signal,
      onPart,
      returnToolRequests: options.returnToolRequests ?? false,
      tools: plan.tools,
      chatTools: core.tools,
      toolChoice: plan.toolChoice,
      generation: plan.generation,
      stopWhen: plan.controls.stopWhen,
      prepareStep: plan.controls.prepareStep,
      firstStep: stepsSinceUser(state.messages),
      output: plan.output,
      chain: [...chain, core.id],
    },
  );
}

/**
 * The run's code, loaded at a chat's first run rather than with the page
 * entry (an app that never sends carries none of it). A chat loads it ahead
 * when it opens (preloadRun), so the first send waits on nothing in practice.
 * The import happens inside the chat's one-at-a-time work, so no send can
 * overtake another while it loads; a failed load is not kept, so the next
 * run tries again.
 */
const loadRun = lazyImport(() => import('../run/loop.js'));

/** Loads the run's code ahead of a chat's first run; a failure is the first run's to tell. */
export function preloadRun(): void {
  loadRun().catch(() => undefined);
}

/** Each offered tool's schema warnings, the first time this chat offers it. */
function warnOf(core: ChatCore, tools: ToolSet): void {
  for (const name of tools.names) {
    const tool = tools.get(name)!;
    if (tool.kind !== 'managed' || !tool.warnings?.length || core.warned.has(tool)) continue;
    core.warned.add(tool);
    for (const message of tool.warnings) core.emit('tool-warning', { chatId: core.id, toolName: name, message });
  }
}

/** Model turns since the latest user message: a run's steps go on across the answers to its calls. */
function stepsSinceUser(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== 'user'; i--) if (messages[i]!.role === 'assistant') count++;
  return count;
}

function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}
