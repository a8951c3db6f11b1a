// Every template tabagent knows shows the model its tools: the conformance
// sources (conformance/template-sources.ts) and every curated GGUF's own
// (conformance/gguf-templates.ts), rendered as the CPU engine renders a
// request (worker/template-prompt.ts). A tool the prompt never names is one
// the grammar lets the model call blind.
import { describe, expect, it } from 'vitest';
import { codecs } from '../protocol/codecs.js';
import type { ToolDeclaration } from '../shared/tool-protocol.js';
import { TemplatePrompt } from '../worker/template-prompt.js';
import { curatedGgufTemplates } from './gguf-templates.js';
import { templateText } from './template-oracle.js';
import { TEMPLATE_SOURCES } from './template-sources.js';

const tide: ToolDeclaration = {
  name: 'read_tide_tables',
  description: 'High and low water at a harbour',
  parameters: { type: 'object', properties: { harbour: { type: 'string' } }, required: ['harbour'] },
};

const templates = [
  ...TEMPLATE_SOURCES.map((s) => ({ key: `${s.key} (${s.package})`, family: s.family, where: s })),
  ...curatedGgufTemplates().map((g) => ({ key: `curated GGUF ${g.id}: ${g.template.model}`, family: g.family, where: g.template })),
];

/** How many times `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

describe.each(templates.map((t) => [t.key, t] as const))('%s shows the model its tools', (_, t) => {
  for (const system of ['Be brief.', undefined]) {
    it(system ? 'with a system prompt' : 'without one', async () => {
      const prompt = new TemplatePrompt(await templateText(t.where), { codec: codecs[t.family] });
      const text = prompt.render({ ...(system ? { system } : {}), messages: [{ role: 'user', content: 'When is high water at Brest?' }], tools: [tide] }, undefined);
      // Once: in the template's own words where it has them, else in the family's, never both.
      expect(count(text, tide.name)).toBe(1);
      expect(text).toContain(tide.description);
      if (system) expect(text).toContain(system);
    });
  }
});
