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
// A template that declares no tools (SmolLM2's, many community GGUFs') or
// has no tool role gets them in the family's words instead, as WebLLM's
// prompted models do: the codec writes the declarations into the system
// message and the results into a user turn.
//
// Either way every text but the system prompt is escaped first
// (protocol/escape-control-tokens.ts): the template writes the markup, nothing else does.
import { Template } from '@huggingface/jinja';
import { asData } from '../protocol/escape-control-tokens.js';
import type { ToolCodec } from '../protocol/types.js';
import type { ModelMessage, ModelRequest } from '../shared/model.js';

/** What a template is rendered with, besides the conversation. */
export interface TemplateContext {
  /** The family's own words for tools and results, where the template has none. */
  codec: ToolCodec;
}

interface TemplateMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  name?: string;
}

export class TemplatePrompt {
  readonly #template: Template;
  /** The template writes `tools` itself. */
  readonly #declaresTools: boolean;
  /** The template has a `tool` role. */
  readonly #toolRole: boolean;
  /**
   * The last request's renders, by how many messages they took: the next
   * request reuses those within the part of the conversation it shares, so
   * a request costs one render, not one per turn (Jinja is the slow part of
   * a hop).
   */
  #last: { header: string; keys: string[]; renders: Map<number, string> } = { header: '', keys: [], renders: new Map() };
  /** In every placeholder; never in a prompt (each placeholder is replaced), so nothing the model reads or writes can spell it. */
  readonly #secret = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

  /** Throws (a Jinja syntax error) when `source` is not a template. */
  constructor(
    source: string,
    private readonly context: TemplateContext,
  ) {
    this.#template = new Template(source);
    this.#declaresTools = /\btools\b/.test(source);
    this.#toolRole = /["']tool["']/.test(source);
  }

  /** The whole prompt for `request`, up to where the model's reply begins. */
  render(given: Pick<ModelRequest, 'system' | 'messages' | 'tools'>, thinking: boolean | undefined): string {
    const { codec } = this.context;
    const request = asData(given);
    const messages: TemplateMessage[] = [];
    const system = this.#declaresTools ? request.system : codec.renderSystem(request.system, request.tools);
    if (system) messages.push({ role: 'system', content: system });
    /** For each assistant turn: where it stands in `messages`, and what the model wrote. */
    const turns: Array<{ at: number; raw: string }> = [];
    for (const message of request.messages) {
      if (message.role === 'assistant') turns.push({ at: messages.length, raw: message.raw });
      if (message.role === 'tool' && !this.#toolRole) messages.push({ role: 'user', content: codec.renderResults(message.results, false).content });
      else messages.push(...asTemplateMessages(message, placeholder(this.#secret, turns.length)));
    }
    const declared = this.#declaresTools ? request.tools : [];
    const tools = declared.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    const header = JSON.stringify([thinking ?? null, tools]);
    const keys = messages.map((m) => JSON.stringify(m));
    const last = this.#last;
    let shared = 0;
    if (last.header === header) while (shared < keys.length && keys[shared] === last.keys[shared]) shared++;
    const renders = new Map<number, string>();
    const render = (upTo: number) => {
      const text = (upTo <= shared ? last.renders.get(upTo) : undefined) ?? this.#render(messages.slice(0, upTo), tools, thinking);
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
      if (cut < 0 || after.includes(mark, cut + 1)) throw new Error('the chat template does not write the assistant turn’s content once');
      prompt += turn.raw + after.slice(cut + mark.length);
    });
    this.#last = { header, keys, renders };
    return prompt;
  }

  #render(messages: TemplateMessage[], tools: unknown[], thinking: boolean | undefined): string {
    return this.#template.render({
      messages,
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

/** A text no template writes by itself and every template passes through (no spaces to trim, no think tags). */
function placeholder(secret: string, turn: number): string {
  return `\u2063tabagent-${secret}-${turn}\u2063`;
}

/** `turn`: the placeholder of the turn an assistant message is. */
function asTemplateMessages(message: ModelMessage, turn: string): TemplateMessage[] {
  if (message.role === 'user') return [{ role: 'user', content: message.content }];
  if (message.role === 'assistant') return [{ role: 'assistant', content: turn }];
  // One tool message per result: the template groups a turn's results as the model was trained to read them.
  return message.results.map((r) => ({ role: 'tool', name: r.name, content: r.content }));
}
