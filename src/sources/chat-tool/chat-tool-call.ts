// One call of a chat tool (chat.asTool): the message goes into the chat as a
// run of its own, unless the chat's run waits on the caller (a cycle, which
// fails at once: its lock is held until the call ends).
import { ChatToolError } from '../../errors/index.js';
import type { ManagedTool } from '../../tools/types.js';
import { scopeOf } from '../../calls/call-scope.js';
import { waitOn } from './chat-waits.js';
import type { ObjectOutput } from '../../tools/object-output.js';
import type { JsonSchema } from '../../shared/json.js';
import type { Reply } from '../../shared/chat.js';

/**
 * What a chat tool needs of its chat (a Chat is one): declared here, so that
 * the tool sources never import the chat above them.
 */
export interface ToolChat {
  readonly id: string;
  readonly tools: readonly unknown[];
  /** A run of the chat for a call of its tool `toolName` (Chat.sendFor). */
  sendFor(chain: readonly string[], toolName: string, text: string, options: { signal?: AbortSignal }, onPart?: (part: unknown) => void, schema?: JsonSchema): Promise<Reply>;
}

export async function callChat(chat: ToolChat, toolName: string, text: string, reader: ObjectOutput<unknown> | undefined, context: Parameters<ManagedTool['run']>[1]): Promise<unknown> {
  const scope = scopeOf(context);
  const chain = scope?.chain ?? [];
  // The run making the call (none for a call from outside a chat: a browser agent's, through WebMCP).
  const caller = chain.at(-1);
  const wait = caller === undefined ? undefined : waitOn(caller, chat.id);
  if (wait?.cycle) throw new ChatToolError({ toolName, chatId: chat.id, failure: 'cycle', chain: wait.cycle });
  try {
    if (scope) scope.chatId = chat.id;
    const send = (message: string, last?: boolean) =>
      chat.sendFor(chain, toolName, message, { signal: context.signal }, (part) => context.update({ chatId: chat.id, part }), last ? reader?.jsonSchema : undefined);
    if (!reader) return (await send(text)).text;
    // With tools, the chat runs them first; the JSON answer is a turn of its own.
    const tools = chat.tools.length > 0;
    if (tools) await send(text);
    const reply = await send(tools ? 'Now give the result as JSON.' : text, true);
    return await reader.read(reply.text, reply.finishReason);
  } finally {
    wait?.end();
  }
}
