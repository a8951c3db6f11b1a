import type { ModelRequest } from '../shared/model.js';
import { asData, type RenderMessage } from './escape-control-tokens.js';
import type { ToolCodec } from './types.js';
import type { EngineMessage, ToolDeclaration } from '../shared/tool-protocol.js';

/**
 * The conversation as the engine takes it: one engine message per runtime
 * message, but for results the model never read (cancelled, or a run its
 * tools ended), which go with the user message after them as one user turn,
 * so each request still adds one message and WebLLM keeps its KV cache.
 * `toolRole`: the model's template has one. Every text but the app's system
 * prompt and the model's own turns is escaped here, and a turn the model
 * did not write is written in the family's format (escape-control-tokens.ts):
 * the markup the model reads is the template's and the codec's only.
 */
export function renderMessages(codec: ToolCodec, given: ModelRequest, toolRole: boolean): EngineMessage[] {
  const request = asData(given, codec.family);
  const messages: EngineMessage[] = [];
  const system = systemText(codec, request.system, request.tools);
  if (system !== undefined && system !== '') messages.push({ role: 'system', content: system });
  request.messages.forEach((message, i) => {
    const unread = message.role === 'tool' && request.messages[i + 1]?.role === 'user';
    const next: EngineMessage =
      message.role === 'user' ? { role: 'user', content: message.content }
      : message.role === 'assistant' ? { role: 'assistant', content: message.raw }
      : renderedResults(codec, message, toolRole && !unread);
    const last = messages.at(-1);
    // Joined as a new message: either may be results kept for the next hop, never changed.
    if (last?.role === 'user' && next.role === 'user') messages[messages.length - 1] = { role: 'user', content: `${last.content}\n${next.content}` };
    else messages.push(next);
  });
  return messages;
}

/** Per results message (the same object hop after hop, escaped once: escape-control-tokens.ts), as the codec last wrote it. */
const resultTexts = new WeakMap<RenderMessage, { codec: ToolCodec; asTool: boolean; rendered: EngineMessage }>();

function renderedResults(codec: ToolCodec, message: Extract<RenderMessage, { role: 'tool' }>, asTool: boolean): EngineMessage {
  const last = resultTexts.get(message);
  if (last?.codec === codec && last.asTool === asTool) return last.rendered;
  const rendered = codec.renderResults(message.results, asTool);
  resultTexts.set(message, { codec, asTool, rendered });
  return rendered;
}

/** Per tool list (escaped: the same object hop after hop), the system text last written with it. */
const systemTexts = new WeakMap<readonly ToolDeclaration[], { codec: ToolCodec; system: string | undefined; text: string | undefined }>();

/** The system prompt with the tools declared, written once while the prompt and the list stay. */
function systemText(codec: ToolCodec, system: string | undefined, tools: readonly ToolDeclaration[]): string | undefined {
  const last = systemTexts.get(tools);
  if (last?.codec === codec && last.system === system) return last.text;
  const text = codec.renderSystem(system, tools);
  systemTexts.set(tools, { codec, system, text });
  return text;
}
