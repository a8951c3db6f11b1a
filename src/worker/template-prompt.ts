// A request as one prompt string, rendered with the model's own chat template
// (the Jinja `tokenizer.chat_template` of a GGUF) by a real Jinja engine,
// tools included: the words the model was trained on, not a table of ours.
//
// Every assistant turn goes back exactly as the model wrote it. Templates
// rewrite history (Qwen3's drops an empty think block, others trim or rebuild
// calls from `tool_calls`), and a rewritten turn breaks the engine's KV-cache
// reuse at that turn. So the prompt is spliced: each assistant turn is
// rendered as a placeholder, the template's text around the placeholders is
// kept, and each placeholder, with the generation prompt the model answered,
// becomes the model's own text. Request n's prompt is then request n-1's
// prompt, its reply, and what the template writes for the new messages.
// The placeholders hold a secret of this TemplatePrompt, made when it is: no
// content (a fetched page, a message) can name one, so none can move a splice.
//
// Tools go where the template reads them, found by rendering
// (worker/template-tools.ts): the `tools` variable, or a system message's
// `tools` (Phi-4-mini's). A template that writes none it is given
// (SmolLM2's, many community GGUFs') or has no tool role gets them in the
// family's words instead, as WebLLM's prompted models do: the codec writes
// the declarations into the system message and the results into a user turn.
//
// Either way every text but the app's system prompt and the model's own turns
// is escaped first, and a turn the model did not write is written from its
// escaped text and calls in the family's format, then placed like the
// model's own (protocol/escape-control-tokens.ts): the template writes the
// markup, nothing else does.
//
// A chat stores histories a strict template refuses: a send that failed keeps
// the person's message, so two user messages follow each other; results of
// a template without a tool role become a user turn, which the next message
// follows. Templates that demand alternation (Gemma's, Mistral's) raise
// on those, and the chat could never go on. So the history is shaped for the
// template (never in storage): where a template refuses two user turns in a
// row (asked once, when the template is loaded), they are written as one;
// where it refuses a system message (Gemma 2's), the system prompt opens the
// first user turn. A template that refuses all the same is a ChatTemplateError.
//
// A template that refuses even the least conversation (one that always
// raises, or uses what the Jinja engine cannot run, such as `'%s' % x`) is
// refused when it is loaded, from the GGUF's header: not at the first send,
// after the whole download.
import { Template } from '@huggingface/jinja';
import { ChatTemplateError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';
import { asData, type RenderMessage } from '../protocol/escape-control-tokens.js';
import type { ToolCodec } from '../protocol/types.js';
import type { ModelRequest } from '../shared/model.js';
import { systemTools, templateTools, toolPlacement, type ToolPlacement } from './template-tools.js';

/** What a template is rendered with, besides the conversation. */
export interface TemplateContext {
  /** The family's own words for tools and results, where the template has none. */
  codec: ToolCodec;
}

interface TemplateMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** A system message's tools, as JSON text, for a template that reads them there. */
  tools?: string;
  name?: string;
  /** Mistral's templates refuse a result without one (nine letters or digits). */
  tool_call_id?: string;
}

export class TemplatePrompt {
  readonly #template: Template;
  /** Where the template reads the tools it writes; `none`: the codec declares them. */
  readonly #tools: ToolPlacement;
  /** The template has a `tool` role. */
  readonly #toolRole: boolean;
  /** The template refuses two user turns in a row: they are written as one. */
  readonly #joinsUsers: boolean;
  /** The template refuses a system message: the system prompt opens the first user turn. */
  readonly #noSystem: boolean;
  /**
   * The last request's renders, by how many messages they took: the next
   * request reuses those within the part of the conversation it shares, so
   * a request costs one render, not one per turn (Jinja is the slow part of
   * a hop).
   */
  #last: { header: string; keys: string[]; renders: Map<number, string> } = { header: '', keys: [], renders: new Map() };
  /** In every placeholder; never in a prompt (each placeholder is replaced), so nothing the model reads or writes can spell it. */
  readonly #secret = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

  /** Throws a Jinja syntax error when `source` is not a template, a ChatTemplateError when it renders no conversation. */
  constructor(
    source: string,
    private readonly context: TemplateContext,
  ) {
    // The engine's own strftime_now reads the clock and cannot be replaced: the template asks for the chat's day under another name.
    this.#template = new Template(source.replace(/\bstrftime_now\b/g, PINNED_STRFTIME));
    this.#toolRole = /["']tool["']/.test(source);
    this.#joinsUsers = !this.#accepts([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]);
    this.#noSystem = !this.#accepts([{ role: 'system', content: 's' }, { role: 'user', content: 'a' }]) && this.#accepts([{ role: 'user', content: 'a' }]);
    const now = Date.now();
    const least: TemplateMessage[] = [...(this.#noSystem ? [] : [{ role: 'system' as const, content: 'Be brief.' }]), { role: 'user', content: 'Hi' }];
    this.#render(least, [], undefined, now);
    this.#tools = toolPlacement((messages, tools) => this.#renderRaw(messages, tools, undefined, now), !this.#noSystem);
  }

  /** The whole prompt for `request`, up to where the model's reply begins. */
  render(given: Pick<ModelRequest, 'system' | 'foreignSystem' | 'messages' | 'tools' | 'date'>, thinking: boolean | undefined): string {
    const { codec } = this.context;
    const request = asData(given, codec.family);
    const messages: TemplateMessage[] = [];
    const system = this.#tools === 'none' ? codec.renderSystem(request.system, request.tools) : request.system;
    // Such a template writes the tools only in a system message: one is made for them.
    const toolsInSystem = this.#tools === 'system' && request.tools.length > 0 ? { tools: systemTools(request.tools) } : undefined;
    /** A user turn follows the one before it where the template wants no two in a row. */
    const push = (message: TemplateMessage) => {
      const last = messages.at(-1);
      if (message.role === 'user' && last?.role === 'user' && this.#joinsUsers) messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${message.content}` };
      else messages.push(message);
    };
    if ((system || toolsInSystem) && !this.#noSystem) messages.push({ role: 'system', content: system ?? '', ...toolsInSystem });
    else if (system) messages.push({ role: 'user', content: system });
    /** For each assistant turn: where it stands in `messages`, and what the model wrote. */
    const turns: Array<{ at: number; raw: string }> = [];
    let results = 0;
    for (const message of request.messages) {
      if (message.role === 'assistant') turns.push({ at: messages.length, raw: message.raw });
      if (message.role === 'tool' && !this.#toolRole) push({ role: 'user', content: codec.renderResults(message.results, false).content });
      else for (const m of asTemplateMessages(message, placeholder(this.#secret, turns.length), () => results++)) push(m);
    }
    const tools = this.#tools === 'variable' ? templateTools(request.tools) : [];
    // A request without a chat (agent.generate) is dated when it is made.
    const date = request.date ?? Date.now();
    const header = JSON.stringify([thinking ?? null, tools, dayOf(date)]);
    const keys = messages.map((m) => JSON.stringify(m));
    const last = this.#last;
    let shared = 0;
    if (last.header === header) while (shared < keys.length && keys[shared] === last.keys[shared]) shared++;
    const renders = new Map<number, string>();
    const render = (upTo: number) => {
      const text = (upTo <= shared ? last.renders.get(upTo) : undefined) ?? this.#render(messages.slice(0, upTo), tools, thinking, date);
      renders.set(upTo, text);
      return text;
    };
    // Before the first turn: the prompt it was written after.
    let prompt = render(turns[0]?.at ?? messages.length);
    turns.forEach((turn, i) => {
      const after = render(turns[i + 1]?.at ?? messages.length);
      const mark = placeholder(this.#secret, i + 1);
      const cut = after.indexOf(mark);
      // Written once, or the secret would reach the prompt.
      if (cut < 0 || after.includes(mark, cut + 1)) throw new ChatTemplateError('it does not write an assistant turn’s content exactly once, so the model’s own reply cannot be put back as it wrote it');
      prompt += turn.raw + after.slice(cut + mark.length);
    });
    this.#last = { header, keys, renders };
    return prompt;
  }

  /** Whether the template renders `messages` without raising. */
  #accepts(messages: TemplateMessage[]): boolean {
    try {
      this.#template.render({ messages, add_generation_prompt: true, bos_token: '', eos_token: '' });
      return true;
    } catch {
      return false;
    }
  }

  #render(messages: TemplateMessage[], tools: unknown[], thinking: boolean | undefined, date: number): string {
    try {
      return this.#renderRaw(messages, tools, thinking, date);
    } catch (cause) {
      throw new ChatTemplateError(messageOf(cause), { cause });
    }
  }

  #renderRaw(messages: TemplateMessage[], tools: unknown[], thinking: boolean | undefined, date: number): string {
    return this.#template.render({
      messages,
      // The chat's own day, not the clock's: a prompt that changed at midnight would lose the KV cache.
      [PINNED_STRFTIME]: (format: unknown) => strftime(new Date(date), String(format)),
      ...(tools.length > 0 ? { tools } : {}),
      add_generation_prompt: true,
      // llama.cpp puts BOS in front of the prompt where the model asks for it:
      // a template's own would be a second one. wllama does not say the EOS
      // token's text, so a template that writes it after each turn (Mistral's)
      // goes without it.
      bos_token: '',
      eos_token: '',
      ...(thinking === undefined ? {} : { enable_thinking: thinking }),
    });
  }
}

/** What the template calls for `strftime_now`: today's date is the chat's. */
const PINNED_STRFTIME = 'tabagent_strftime_chat_day';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The local day of `time`, as the render cache tells requests apart. */
function dayOf(time: number): string {
  return strftime(new Date(time), '%Y-%m-%d');
}

/** Python's `strftime` in the C locale (what the templates were written for: English names whatever the browser's language). */
function strftime(date: Date, format: string): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return format.replace(/%[YmdbBaAHMSyje%]/g, (token) => {
    switch (token) {
      case '%Y': return String(date.getFullYear());
      case '%y': return pad(date.getFullYear() % 100);
      case '%m': return pad(date.getMonth() + 1);
      case '%d': return pad(date.getDate());
      case '%e': return String(date.getDate()).padStart(2, ' ');
      case '%j': return String(Math.floor((Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) - Date.UTC(date.getFullYear(), 0, 0)) / 86_400_000)).padStart(3, '0');
      case '%b': return MONTHS[date.getMonth()]!.slice(0, 3);
      case '%B': return MONTHS[date.getMonth()]!;
      case '%a': return DAYS[date.getDay()]!.slice(0, 3);
      case '%A': return DAYS[date.getDay()]!;
      case '%H': return pad(date.getHours());
      case '%M': return pad(date.getMinutes());
      case '%S': return pad(date.getSeconds());
      default: return '%';
    }
  });
}

/** A text no template writes by itself and every template passes through (no spaces to trim, no think tags). */
function placeholder(secret: string, turn: number): string {
  return `\u2063tabagent-${secret}-${turn}\u2063`;
}

/**
 * `turn`: the placeholder of the turn an assistant message is; `nextResult`:
 * the conversation's running count of results, which names each (the same in
 * every render of a prefix).
 */
function asTemplateMessages(message: RenderMessage, turn: string, nextResult: () => number): TemplateMessage[] {
  if (message.role === 'user') return [{ role: 'user', content: message.content }];
  if (message.role === 'assistant') return [{ role: 'assistant', content: turn }];
  // One tool message per result: the template groups a turn's results as the model was trained to read them.
  return message.results.map((r) => ({ role: 'tool', name: r.name, content: r.content, tool_call_id: `call${String(nextResult()).padStart(5, '0')}` }));
}
