// Where a chat template reads the tools it declares, decided by rendering,
// not by reading its text: most take the `tools` variable, Phi-4-mini's
// reads a system message's `tools` string, and a template may name `tools`
// and still write none (or raise on them, where the Jinja engine lacks a
// filter it uses). A tool whose name nothing else could write is passed each
// way; the way whose render names it is the template's. Where none does,
// the family's codec declares the tools in the system text.
import { toolListJson } from '../protocol/codecs.js';
import type { ToolDeclaration } from '../shared/tool-protocol.js';

/**
 * `variable`: the `tools` variable, as OpenAI-style functions; `system`: the
 * system message's `tools`, as JSON text; `none`: the template writes no
 * tools it is given.
 */
export type ToolPlacement = 'variable' | 'system' | 'none';

/** A probe's message: a system message may carry `tools`. */
export interface ProbeMessage {
  role: 'system' | 'user';
  content: string;
  tools?: string;
}

/** Renders the template with `messages` and the `tools` variable (absent when empty); throws as the template does. */
export type ProbeRender = (messages: ProbeMessage[], tools: unknown[]) => string;

/** The tools as the `tools` variable gives them: the OpenAI function shape templates were written for. */
export function templateTools(tools: readonly ToolDeclaration[]): unknown[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** The tools as a system message's `tools` field gives them. */
export function systemTools(tools: readonly ToolDeclaration[]): string {
  return toolListJson(tools);
}

/** `system`: the template takes a system message (a template that refuses one cannot read tools from it). */
export function toolPlacement(render: ProbeRender, system: boolean): ToolPlacement {
  const id = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join('');
  // With a parameter: a template may raise only on what it writes of one (Qwen3-Coder's `reject` filter, which @huggingface/jinja lacks).
  const probe: ToolDeclaration = { name: `probe_${id}`, description: 'A probe', parameters: { type: 'object', properties: { text: { type: 'string', description: 'Any text' } }, required: ['text'] } };
  const user: ProbeMessage = { role: 'user', content: 'Hi' };
  const head: ProbeMessage[] = system ? [{ role: 'system', content: 'Be brief.' }] : [];
  const shows = (messages: ProbeMessage[], tools: unknown[]) => {
    try {
      return render(messages, tools).includes(probe.name);
    } catch {
      return false;
    }
  };
  if (shows([...head, user], templateTools([probe]))) return 'variable';
  if (system && shows([{ role: 'system', content: 'Be brief.', tools: systemTools([probe]) }, user], [])) return 'system';
  return 'none';
}
