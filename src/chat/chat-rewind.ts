// Going back to an earlier message: which messages a chat can go back to,
// and `rewind` itself. edit and regenerate({ from }) (chat-send.ts) go back
// the same way and run from there, in the same turn of the chat's queue.
// Every way back is refused, changing nothing, while calls wait for an
// answer, as a new message is.
import { InvalidOptionsError, MessageNotFoundError, PendingToolCallsError } from '../errors/index.js';
import type { ChatMessage } from '../shared/chat.js';
import type { ChatCore } from './chat-run.js';
import type { ChatState } from './chat-state.js';

/** What a way back may land before: a user message (rewind, edit) or a model turn (regenerate). */
type Landing = ChatMessage['role'];

/**
 * The message at `index`, checked for a way back that lands before it. Not
 * a tool result: its turn's calls would be waiting again.
 */
export function rewindPoint(state: ChatState, index: unknown, option: string, allowed: readonly Landing[]): number {
  const message = Number.isInteger(index) ? state.messages[index as number] : undefined;
  if (!message) throw new MessageNotFoundError(state.id, { index: index as number });
  const pending = state.pendingToolCalls;
  if (pending.length) throw new PendingToolCallsError(pending);
  if (!allowed.includes(message.role)) throw new InvalidOptionsError(option, `must be the index of ${allowed.map((role) => (role === 'user' ? 'a user message' : 'an answer (a model turn)')).join(' or ')}; message ${String(index)} is ${message.role === 'tool' ? 'a tool result' : message.role === 'user' ? 'a user message' : 'an answer'}`);
  return index as number;
}

/** Drop the message at `index` and everything after it, in one write. */
export function rewindTo(core: ChatCore, index: number): Promise<void> {
  const { state } = core;
  return state.exclusive(
    async () => {
      await state.rewind(rewindPoint(state, index, 'index', ['user']));
    },
    { catchUp: true },
  );
}
