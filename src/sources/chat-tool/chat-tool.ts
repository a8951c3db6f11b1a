// A chat as a tool of another chat (chat.asTool). A call sends the message
// into the chat as a run of its own, under the chat's own lock, tools and hop
// cap. The same model serves it: the calling run's request is over while its
// tools run, and the worker takes requests one at a time in the order asked,
// so nothing waits on the calling run. Only a chat whose run waits on the
// call cannot take it (its lock is held until the call ends): that is a
// cycle, and fails at once.
import { object, string } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { InvalidOptionsError } from '../../errors/index.js';
import { tool } from '../../tools/define-tool.js';
import type { ErrorPolicy, ManagedTool, ToolTraits } from '../../tools/types.js';
import { objectOutput, type ObjectSchema } from '../../tools/object-output.js';
import type { ToolChat } from './chat-tool-call.js';

export interface ChatToolOptions<Input = { task: string }, Output = string> extends ToolTraits {
  name: string;
  /** What the calling model reads about the tool: say what the chat is good at. */
  description: string;
  /** A zod object schema of the tool's input (default: `{ task: string }`, sent as the message); needs `message`. */
  input?: $ZodType<Input>;
  /** The message sent to the chat, made from the input (default: the `task`). */
  message?: (input: Input) => string;
  /** Answer with a JSON value that fits this schema (zod, or JSON Schema), returned as the result; a chat with tools runs them first. */
  output?: ObjectSchema<Output>;
  /** What a failed run does to the calling run (default `'return'`, as `tool()`). */
  onError?: ErrorPolicy;
  needsApproval?: boolean | ((input: Input) => boolean | Promise<boolean>);
  /** Give up after this long: the chat's run is aborted and the call fails with ToolTimeoutError. */
  timeoutMs?: number;
}

export function chatTool<Input, Output>(chat: ToolChat, options: ChatToolOptions<Input, Output>): ManagedTool<Input, Output> {
  const { input, message, output, ...rest } = options ?? ({} as ChatToolOptions<Input, Output>);
  if (message !== undefined ? typeof message !== 'function' : input !== undefined) throw new InvalidOptionsError('asTool.message', 'must be a function of the input (needed with `input`)');
  // Checked now, so a bad schema fails where the tool is made.
  const reader = output && objectOutput(output);
  // The call itself loads when a chat tool is first called: most apps never make one.
  const run = async (value: Input, context: Parameters<ManagedTool['run']>[1]): Promise<unknown> =>
    (await import('./chat-tool-call.js')).callChat(chat, rest.name, message ? message(value) : (value as { task: string }).task, reader, context);
  const task = object({ task: string().min(1).describe('The whole task: nothing else of this chat is seen') });
  return tool({ ...rest, input: (input ?? task) as $ZodType<Input>, run }) as ManagedTool<Input, Output>;
}
