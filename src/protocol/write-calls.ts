// Tool calls written the way each model family writes them, from the
// family's own call format, so they are exactly what the grammar lets a model
// write: for fake models' scripts (tabagent/testing), and for a turn the
// model did not write (an AI SDK history from another model, an imported
// chat's turn), which the worker writes from its escaped text and calls.
import { codecs } from './codecs.js';
import { gemma4Value } from './formats/gemma4.js';
import type { ModelFamily, TagFormat } from '../shared/tool-protocol.js';

type Args = Record<string, unknown>;

function argumentsText(content: TagFormat, args: Args): string {
  if (content.type === 'qwen_xml_parameter') {
    return Object.entries(args)
      .map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>`)
      .join('\n');
  }
  // Gemma's notation inside the braces its tag already writes.
  if (content.type === 'any_text') return gemma4Value(args).slice(1, -1);
  if (content.type === 'const_string') return content.value;
  return JSON.stringify(args);
}

function callText(family: ModelFamily, name: string, args: Args): string {
  // Formats whose grammar depends on the parameters only care whether there are any.
  const parameters = { type: 'object', properties: Object.fromEntries(Object.keys(args).map((key) => [key, {}])) };
  const tag = codecs[family].format.tag({ name, description: '', parameters });
  return tag.begin + argumentsText(tag.content, args) + tag.end;
}

/** One tool call as `family` writes it (default Hermes/Qwen: `<tool_call>\n{json}\n</tool_call>`). */
export function toolCallText(name: string, args: Args = {}, family: ModelFamily = 'hermes'): string {
  return toolCallsText([{ name, arguments: args }], family);
}

/** A whole turn, its text then its calls, as `family` writes one. */
export function turnText(text: string, calls: ReadonlyArray<{ name: string; arguments?: Args }>, family: ModelFamily): string {
  return calls.length ? toolCallsText(calls, family, text) : text;
}

/**
 * Several calls in one reply, as `family` writes them, after `lead` text where
 * the family lets calls follow text (a Llama call is the whole reply, so there
 * the lead is left out).
 */
export function toolCallsText(calls: ReadonlyArray<{ name: string; arguments?: Args }>, family: ModelFamily = 'hermes', lead = ''): string {
  const { anchor, list } = codecs[family].format;
  const texts = calls.map((c) => callText(family, c.name, c.arguments ?? {}));
  if (anchor === 'reply-start') return list.open + texts.join(list.separator) + list.close;
  return (lead ? `${lead}\n` : '') + texts.join(list.separator);
}
