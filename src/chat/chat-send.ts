// A message into the chat and the run that answers it: send (and the runs
// of generateObject and of a chat tool's calls, and edit: a message in the
// place of an earlier one), and regenerate. What can never work (a message
// that cannot fit, tools the model cannot call) is refused before anything
// is written.
import { ChatToolError, InvalidOptionsError, PendingToolCallsError } from '../errors/index.js';
import type { JsonSchema } from '../shared/json.js';
import type { ChatMessage, Reply } from '../shared/chat.js';
import { readsCalls } from '../shared/model.js';
import type { SendOptions } from './chat-options.js';
import { planRun, runChat, type ChatCore, type PartListener, type RunPlan } from './chat-run.js';
import { rewindPoint } from './chat-rewind.js';
import { cancelPending } from './tool-answers.js';

/** A chat tool's call that this send answers: the runs waiting on it, and the tool's name. */
interface AsTool {
  chain: readonly string[];
  toolName: string;
}

/** How a message goes in besides its text. */
interface SendWay {
  /** The reply is one JSON value that fits it (generateObject). */
  schema?: JsonSchema;
  asTool?: AsTool;
  /** The index of the user message this one takes the place of (edit): it and everything after it are dropped in the same write. */
  replace?: number;
}

export function sendText(core: ChatCore, text: string, options: SendOptions, onPart?: PartListener, { schema, asTool, replace }: SendWay = {}): Promise<Reply> {
  if (typeof text !== 'string' || text.trim() === '') return Promise.reject(new InvalidOptionsError('text', 'must be a non-empty string'));
  const { state } = core;
  return state.exclusive(async () => {
    options.signal?.throwIfAborted();
    const kept = replace === undefined ? state.messages.length : rewindPoint(state, replace, 'index', 'user');
    const pending = state.pendingToolCalls;
    if (pending.length) throw new PendingToolCallsError(pending);
    // Structured output: the tools stay declared (the prompt's prefix stays the chat's), no call can be made.
    const plan: RunPlan = schema ? { ...planRun(core, { ...options, toolChoice: 'none' }), controls: { stopWhen: [] }, output: { schema } } : planRun(core, options);
    // A message that can never fit is refused before it is written: the chat stays as it was.
    const refusal = core.window.refusal(state.messages.slice(0, kept), text, core.settings.system, plan.tools.declarations, plan.generation?.maxTokens) ?? toolsRefusal(core, plan.tools.declarations.length);
    if (refusal) throw refusal;
    const message: ChatMessage = { role: 'user', content: text, createdAt: Date.now() };
    if (replace === undefined) await state.commit([message], { title: state.title ? undefined : titleFrom(text) });
    else await state.rewind(kept, [message]);
    if (!asTool) return runChat(core, options, plan, onPart);
    try {
      const reply = await runChat(core, options, plan, onPart, asTool.chain);
      const calls = [...reply.toolCalls, ...(reply.approvals ?? [])];
      if (calls.length) throw new ChatToolError({ toolName: asTool.toolName, chatId: core.id, failure: 'pending', calls });
      return reply;
    } finally {
      await cancelPending(core, 'The chat ran as a tool, and no one there could answer this call.').catch(() => undefined);
    }
  }, { signal: options.signal });
}

/**
 * An answer dropped (stored and here) with everything after it, and the
 * model asked again from the conversation before it. `from`: the answer's
 * index; by default the last message, which must be an answer.
 */
export function regenerateAnswer(core: ChatCore, options: SendOptions, from: number | undefined, onPart?: PartListener): Promise<Reply> {
  const { state } = core;
  return state.exclusive(
    async () => {
      options.signal?.throwIfAborted();
      if (from === undefined && state.messages.at(-1)?.role !== 'assistant') throw new InvalidOptionsError('regenerate', 'the chat has no answer to replace');
      const index = rewindPoint(state, from ?? state.messages.length - 1, 'from', 'assistant');
      const plan = planRun(core, options);
      await state.rewind(index);
      return runChat(core, options, plan, onPart);
    },
    { signal: options.signal, catchUp: true },
  );
}

/**
 * Tools for a model that reads no calls (a GGUF whose template writes no
 * call markup, loaded without `family`): refused before the message is
 * written, as the worker would refuse the request. Unknown while a model loads.
 */
function toolsRefusal(core: ChatCore, tools: number): InvalidOptionsError | undefined {
  if (tools === 0) return undefined;
  let info;
  try {
    info = core.model.info;
  } catch {
    return undefined;
  }
  if (readsCalls(info)) return undefined;
  return new InvalidOptionsError('family', `${info.modelId}'s chat template shows no tool-call format tabagent reads; pass family (for example 'hermes', taught in the system prompt) to give it tools`);
}

/** A chat's default title: the start of its first message, on one line. */
function titleFrom(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
