// The AI SDK's prompt in tabagent's words: one system prompt, and user turns,
// model turns and tool results as the worker renders them for the model.
//
// A model turn goes back to the model as it wrote it, byte for byte: the
// provider hands its raw output to the AI SDK in the turn's provider metadata
// (`providerMetadata.tabagent.raw` on the turn's last part), the AI SDK hands
// it back as provider options in the next step's prompt, and the KV cache
// holds across the AI SDK's steps as across tabagent's own hops. Only a raw
// the provider emitted is trusted (own-raws.ts): a turn that comes without
// one (another model's, or one the app wrote), or with a raw the provider
// did not emit, goes as a foreign turn, which the worker writes the way the
// model's family writes calls, its text and call inputs as data: the model
// reads it, the cache starts over there.
import type { LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput, SharedV4ProviderOptions, SharedV4Warning } from '@ai-sdk/provider';
import { InvalidOptionsError } from '../errors/index.js';
import { DEFAULT_DENIAL } from '../calls/hooks.js';
import { isJsonObject, type JsonObject } from '../shared/json.js';
import { readsCalls, type ModelInfo, type ModelMessage } from '../shared/model.js';
import type { EncodedToolResult } from '../shared/tool-protocol.js';
import { encodeError, encodeResult } from '../tools/encode-result.js';

/** The provider's name, and its key in provider options and metadata. */
export const PROVIDER = 'tabagent';

export interface TabAgentConversation {
  system?: string;
  messages: ModelMessage[];
}

/** What a model turn carries for the next step: the model's output as written. */
export function rawMetadata(raw: string): { [PROVIDER]: { raw: string } } {
  return { [PROVIDER]: { raw } };
}

/** `own`: whether the provider emitted a raw (see own-raws.ts). */
export function conversationOf(prompt: LanguageModelV4Prompt, model: Pick<ModelInfo, 'modelId' | 'family' | 'engine'>, maxResultChars: number, warnings: SharedV4Warning[], own: (raw: string) => boolean): TabAgentConversation {
  if (!Array.isArray(prompt)) throw new InvalidOptionsError('prompt', 'must be a list of messages');
  const systems: string[] = [];
  const messages: ModelMessage[] = [];
  const warn = once(warnings);
  /** The last model turn's calls, in the order it wrote them. */
  let callOrder: string[] = [];
  /** The results of that turn so far, with the call each answers. */
  let answered: Array<{ callId: string; result: EncodedToolResult }> = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        if (messages.length > 0) warn({ type: 'compatibility', feature: 'system message after the conversation started', details: 'tabagent gives the model one system prompt, at the start: later system messages are added to it.' });
        systems.push(message.content);
        break;
      case 'user': {
        const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
        if (message.content.some((part) => part.type !== 'text')) warn({ type: 'unsupported', feature: 'file parts in user messages', details: 'on-device models read text only; the files were left out.' });
        messages.push({ role: 'user', content: text });
        break;
      }
      case 'assistant':
        messages.push(turnOf(message, model, warn, own));
        callOrder = message.content.flatMap((part) => (part.type === 'tool-call' && !part.providerExecuted ? [part.toolCallId] : []));
        break;
      case 'tool': {
        const results = message.content.flatMap((part) => (part.type === 'tool-result' ? [{ callId: part.toolCallId, result: { name: part.toolName, content: resultContent(part.output, part.toolName, part.toolCallId, maxResultChars, warn) } }] : []));
        if (results.length === 0) break;
        // The results of one turn go to the model as one message, as tabagent's own hops send them.
        const last = messages.at(-1);
        answered = last?.role === 'tool' ? [...answered, ...results] : results;
        // In the order of their calls: the prompt pairs a result with its call
        // by id, a model's format by place. One for no call of the turn goes last.
        const rank = (callId: string) => (callOrder.includes(callId) ? callOrder.indexOf(callId) : callOrder.length);
        const inOrder = [...answered].sort((a, b) => rank(a.callId) - rank(b.callId)).map(({ result }) => result);
        if (last?.role === 'tool') last.results = inOrder;
        else messages.push({ role: 'tool', results: inOrder });
        break;
      }
    }
  }
  const last = messages.at(-1);
  if (!last || last.role === 'assistant') throw new InvalidOptionsError('prompt', 'must end with a user message or tool results: the model answers the last message');
  return { ...(systems.length ? { system: systems.join('\n\n') } : {}), messages };
}

/** The model's own output for a turn, from the provider metadata it came back with, if the provider emitted it; else its text and calls, for the worker to write as data. */
function turnOf(message: Extract<LanguageModelV4Message, { role: 'assistant' }>, model: Pick<ModelInfo, 'modelId' | 'family' | 'engine'>, warn: (warning: SharedV4Warning) => void, own: (raw: string) => boolean): ModelMessage {
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const calls = message.content.flatMap((part) => (part.type === 'tool-call' && !part.providerExecuted ? [{ name: part.toolName, arguments: argumentsOf(part.input) }] : []));
  for (const part of message.content) {
    const raw = rawIn(part.providerOptions);
    // Its text and calls ride along for an engine that reads no markup (a server model).
    if (raw !== undefined && own(raw)) return { role: 'assistant', raw, text, calls };
  }
  if (message.content.some((part) => part.type === 'file' || part.type === 'reasoning-file')) warn({ type: 'unsupported', feature: 'file parts in assistant messages', details: 'on-device models read text only; the files were left out.' });
  if (calls.length && !readsCalls(model)) throw noCallFormat(model.modelId);
  return { role: 'assistant', text, calls };
}

/** Calls are to be written (tools, or past calls given back) for a model that reads none: loaded without family, its template writing none. */
export function noCallFormat(modelId: string): InvalidOptionsError {
  return new InvalidOptionsError('family', `${modelId}'s chat template shows no tool-call format tabagent reads; pass family (for example 'hermes', taught in the system prompt) to give it tools`);
}

function rawIn(options: SharedV4ProviderOptions | undefined): string | undefined {
  const raw = options?.[PROVIDER]?.raw;
  return typeof raw === 'string' ? raw : undefined;
}

function argumentsOf(input: unknown): JsonObject {
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return {};
    }
  }
  return isJsonObject(input) ? input : {};
}

/**
 * A tool's output as the model reads it: JSON data, as tabagent's own tools'
 * results are (the worker escapes control tokens in it, and truncates it at
 * `maxResultChars` with a visible marker), errors and denials written as
 * tabagent writes them (`{"error": …}`, `{"denied": true, "reason": …}`).
 */
function resultContent(output: LanguageModelV4ToolResultOutput, toolName: string, callId: string, maxResultChars: number, warn: (warning: SharedV4Warning) => void): string {
  const where = { toolName, callId };
  switch (output.type) {
    case 'text':
    case 'json':
      return encodeResult(output.value, where, maxResultChars);
    case 'error-text':
      return encodeError(output.value);
    case 'error-json':
      return encodeResult({ error: output.value }, where, maxResultChars);
    case 'execution-denied':
      return encodeResult({ denied: true, reason: output.reason ?? DEFAULT_DENIAL }, where);
    case 'content': {
      const items = output.value.map((item) => {
        if (item.type === 'text') return item.text;
        if (item.type === 'file') {
          warn({ type: 'unsupported', feature: 'files in tool results', details: 'on-device models read text only; a file is described by its media type.' });
          return { file: item.mediaType, ...(item.filename ? { filename: item.filename } : {}) };
        }
        return { type: item.type };
      });
      return encodeResult(items.length === 1 && typeof items[0] === 'string' ? items[0] : items, where, maxResultChars);
    }
  }
}

/** A warning once per call, however many parts ask for it. */
function once(warnings: SharedV4Warning[]): (warning: SharedV4Warning) => void {
  return (warning) => {
    const key = JSON.stringify(warning);
    if (!warnings.some((w) => JSON.stringify(w) === key)) warnings.push(warning);
  };
}
