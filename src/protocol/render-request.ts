import type { ModelRequest } from '../model/types.js';
import type { EngineMessage, ToolCodec } from './types.js';

/** The conversation as the engine takes it: one engine message per runtime message. `toolRole`: the model's template has one. */
export function renderMessages(codec: ToolCodec, request: ModelRequest, toolRole: boolean): EngineMessage[] {
  const messages: EngineMessage[] = [];
  const system = codec.renderSystem(request.system, request.tools);
  if (system !== undefined && system !== '') messages.push({ role: 'system', content: system });
  for (const message of request.messages) {
    if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') messages.push({ role: 'assistant', content: message.raw });
    else messages.push(codec.renderResults(message.results, toolRole));
  }
  return messages;
}
