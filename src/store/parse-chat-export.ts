// Validation of chat export files (loaded only when importing). A file is
// untrusted input: it is checked against the format field by field, rebuilt
// from what the schema keeps, and refused whole on any problem. What it says
// is kept as given, but nothing in it is trusted as markup: its assistant
// turns are foreign (the model reads their text and calls, never their raw),
// and its system prompt is the file's, read as data (`foreignSystem`).
import * as z from 'zod/mini';
import type { ChatMessage } from '../shared/chat.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../shared/json.js';
import { InvalidChatExportError } from '../errors/index.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './chat-export.js';
import type { StoredChat } from './records.js';

const text = (max = 1_000_000) => z.string().check(z.maxLength(max));
const id = z.string().check(z.minLength(1), z.maxLength(200));
const time = z.number().check(z.nonnegative());
const json = z.json();

const toolCall = z.object({
  id,
  name: text(200),
  arguments: z.record(z.string(), json),
  error: z.optional(text(10_000)),
  errorCode: z.optional(z.enum(['unknown-tool', 'malformed', 'truncated', 'invalid-arguments'])),
});

const count = z.int().check(z.nonnegative());

const result = z.object({
  callId: id,
  name: text(200),
  content: text(),
  isError: z.boolean(),
  status: z.optional(z.enum(['ok', 'error', 'timeout', 'denied', 'blocked', 'invalid', 'stopped', 'cancelled'])),
  durationMs: z.optional(z.number().check(z.nonnegative())),
  attempts: z.optional(count),
  chatId: z.optional(id),
});

const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: text(), createdAt: time }),
  z.object({
    role: z.literal('assistant'),
    raw: text(),
    text: text(),
    reasoning: text(),
    toolCalls: z.array(toolCall).check(z.maxLength(1000)),
    finishReason: z.enum(['stop', 'length', 'abort', 'error']),
    tokens: z.optional(count),
    promptTokens: z.optional(count),
    modelMs: z.optional(z.number().check(z.nonnegative())),
    activeTools: z.optional(z.array(text(200)).check(z.maxLength(1000))),
    createdAt: time,
  }),
  z.object({ role: z.literal('tool'), results: z.array(result).check(z.maxLength(1000)), createdAt: time }),
]);

const toolChoice = z.union([z.enum(['auto', 'required', 'none']), z.object({ name: text(200) })]);

const settings = z.object({
  system: z.optional(text()),
  maxToolHops: z.int().check(z.nonnegative()),
  maxConcurrentTools: z.int().check(z.gte(1)),
  toolChoice,
  grammar: z.optional(z.boolean()),
  generation: z.optional(
    z.object({
      temperature: z.optional(z.number()),
      topP: z.optional(z.number()),
      maxTokens: z.optional(z.int()),
      seed: z.optional(z.int()),
      thinking: z.optional(z.boolean()),
      stopSequences: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(10_000)))),
    }),
  ),
  maxResultChars: z.int().check(z.gte(100)),
  context: z.optional(
    z.object({
      strategy: z.optional(z.enum(['trim', 'error'])),
      window: z.optional(z.int().check(z.gte(1))),
      reserve: z.optional(z.int().check(z.gte(1))),
    }),
  ),
});

const chatExport = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.optional(z.string()),
  chat: z.object({
    id,
    title: text(1000),
    createdAt: time,
    updatedAt: time,
    settings,
    tools: z.array(z.object({ name: text(200), kind: z.enum(['managed', 'raw']) })).check(z.maxLength(1000)),
    answers: z.array(result),
    started: z.optional(z.array(id)),
    awaiting: z.optional(z.array(id)),
  }),
  messages: z.array(message).check(z.maxLength(1_000_000)),
});

/** Parse and check an export (a JSON string or a parsed value); throws InvalidChatExportError. */
export function parseChatExport(input: unknown): StoredChat {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (cause) {
      throw new InvalidChatExportError([`not JSON: ${(cause as Error).message}`]);
    }
  }
  // A message's values sit a few levels into the file; zod's walk of deeper JSON overflows the stack.
  if (nestsDeeper(data, MAX_JSON_DEPTH + 8)) throw new InvalidChatExportError([`(file): nests deeper than ${MAX_JSON_DEPTH} levels in a message`]);
  const parsed = chatExport.safeParse(data);
  if (!parsed.success) {
    throw new InvalidChatExportError(parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`));
  }
  const { chat, messages } = parsed.data;
  const problems = consistency(messages as ChatMessage[], [...chat.answers.map((a) => ({ callId: a.callId, field: 'answers' })), ...(chat.started ?? []).map((callId) => ({ callId, field: 'started' })), ...(chat.awaiting ?? []).map((callId) => ({ callId, field: 'awaiting' }))]);
  if (problems.length) throw new InvalidChatExportError(problems);
  const settings = chat.settings.system !== undefined ? { ...chat.settings, foreignSystem: true as const } : chat.settings;
  const foreign = (messages as ChatMessage[]).map((m): ChatMessage => (m.role === 'assistant' ? { ...m, foreign: true } : m));
  return { record: { ...chat, settings, messageCount: messages.length, version: 0 }, messages: foreign };
}

/** Tool results must answer the calls right before them; pending answers and started marks name the last turn's calls. */
function consistency(messages: ChatMessage[], answers: Array<{ callId: string; field: string }>): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'tool') return;
    const before = messages[i - 1];
    const ids = before?.role === 'assistant' ? before.toolCalls.map((c) => c.id) : [];
    if (m.results.length !== ids.length || m.results.some((r, k) => r.callId !== ids[k])) {
      problems.push(`messages.${i}: tool results do not answer the calls of the message before`);
    }
  });
  if (answers.length) {
    const last = messages.at(-1);
    const pending = last?.role === 'assistant' ? last.toolCalls.map((c) => c.id) : [];
    for (const field of new Set(answers.filter((a) => !pending.includes(a.callId)).map((a) => a.field))) problems.push(`chat.${field}: calls that are not pending`);
  }
  return problems;
}
