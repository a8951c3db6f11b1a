// Going back to an earlier message: which messages a chat can go back to,
// and `rewind` itself. edit and regenerate({ from }) (chat-send.ts) go back
// the same way and run from there, in the same turn of the chat's queue.
// Every way back is refused, changing nothing, while calls wait for an
// answer, as a new message is.
import { InvalidOptionsError, MessageNotFoundError, PendingToolCallsError } from '../errors/index.js';
import type { ChatMessage } from '../shared/chat.js';
import type { ChatCore } from './chat-run.js';
import type { ChatState } from './chat-state.js';

/** What a way back lands before: a user message (rewind, edit) or an answer, a model turn (regenerate). */
type Landing = 'user' | 'assistant';

const KIND: Record<ChatMessage['role'], string> = { user: 'a user message', assistant: 'an answer (a model turn)', tool: 'a tool result' };

/** `index`, checked for a way back that lands before the message there, which must be a `landing`. */
export function rewindPoint(state: ChatState, index: unknown, option: string, landing: Landing): number {
  if (typeof index !== 'number') throw new InvalidOptionsError(option, "must be a message's index in chat.messages (a number)");
  const message = Number.isInteger(index) ? state.messages[index] : undefined;
  if (!message) throw new MessageNotFoundError(state.id, { index });
  const pending = state.pendingToolCalls;
  if (pending.length) throw new PendingToolCallsError(pending);
  if (message.role !== landing) throw new InvalidOptionsError(option, `must be the index of ${KIND[landing]}; message ${index} is ${KIND[message.role]}`);
  return index;
}

/** Drop the message at `index` and everything after it, in one write. */
export function rewindTo(core: ChatCore, index: number): Promise<void> {
  const { state } = core;
  return state.exclusive(
    async () => {
      await state.rewind(rewindPoint(state, index, 'index', 'user'));
    },
    { catchUp: true },
  );
}
