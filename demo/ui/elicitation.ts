// The form a server asks the person to fill in the middle of a call (MCP
// elicitation), built from the flat schema it sends, or its request to open a
// page. Every word of it is the server's: it goes in as text, and a URL is
// shown, never followed until the person says so.
import type { McpElicitation, McpElicitationAnswer, McpElicitationSchema } from '../../src/index.js';
import type { Question } from './dialog.js';
import { h } from './dom.js';

type Property = McpElicitationSchema['properties'][string];
type Value = string | number | boolean;

interface Field {
  key: string;
  row: HTMLElement;
  /** What the person entered; undefined leaves the field out (the schema's default then stands). */
  value(): Value | undefined;
}

/** The dialog's question, and the answer its buttons make. */
export function elicitationQuestion(request: McpElicitation): { question: Question; answer(confirmed: boolean): McpElicitationAnswer } {
  const from = h('p', { class: 'dialog-hint', text: `Asked by ${new URL(request.serverUrl).host}, in the middle of a tool call.` });
  if (request.mode === 'url') {
    return {
      question: { title: 'Open a page for the server?', body: [h('p', { text: request.message }), h('pre', { class: 'dialog-args', text: request.url }), from], confirm: 'Open', cancel: 'Decline' },
      answer: (confirmed) => {
        if (!confirmed) return { action: 'decline' };
        window.open(request.url, '_blank', 'noopener');
        return { action: 'accept' };
      },
    };
  }
  const required = new Set(request.requestedSchema.required ?? []);
  const fields = Object.entries(request.requestedSchema.properties).map(([key, property]) => field(key, property, required.has(key)));
  return {
    question: { title: 'The server asks you', body: [h('p', { text: request.message }), h('div', { class: 'elicitation-form' }, ...fields.map((f) => f.row)), from], confirm: 'Send', cancel: 'Decline' },
    answer: (confirmed) => {
      if (!confirmed) return { action: 'decline' };
      const content: Record<string, Value> = {};
      for (const f of fields) {
        const value = f.value();
        if (value !== undefined) content[f.key] = value;
      }
      return { action: 'accept', content };
    },
  };
}

function field(key: string, property: Property, required: boolean): Field {
  const id = `elicit-${key.replace(/[^\w-]/g, '_')}`;
  const label = h('label', { text: `${typeof property.title === 'string' ? property.title : key}${required ? ' (required)' : ''}`, attrs: { for: id } });
  const help = typeof property.description === 'string' ? h('span', { class: 'elicitation-help', text: property.description }) : null;
  const options = choices(property);
  if (options) {
    const select = h('select', { attrs: { id } }, ...options.map(([value, text]) => h('option', { text, attrs: { value } })));
    if (typeof property.default === 'string') select.value = property.default;
    return { key, row: h('div', { class: 'elicitation-field' }, label, select, help), value: () => select.value };
  }
  if (property.type === 'boolean') {
    const box = h('input', { attrs: { id, type: 'checkbox' } });
    box.checked = property.default === true;
    return { key, row: h('div', { class: 'elicitation-field' }, label, box, help), value: () => box.checked };
  }
  const numeric = property.type === 'number' || property.type === 'integer';
  const type = numeric ? 'number' : property.format === 'email' ? 'email' : property.format === 'uri' ? 'url' : property.format === 'date' ? 'date' : 'text';
  const input = h('input', { attrs: { id, type, ...(property.type === 'integer' ? { step: '1' } : {}) } });
  if (property.default !== undefined) input.value = String(property.default);
  return {
    key,
    row: h('div', { class: 'elicitation-field' }, label, input, help),
    value: () => (input.value === '' ? undefined : numeric ? Number(input.value) : input.value),
  };
}

/** A single choice's options, as value and label: `enum`, or `oneOf` of `{ const, title }`. */
function choices(property: Property): Array<[string, string]> | undefined {
  if (Array.isArray(property.enum)) return property.enum.map((v) => [String(v), String(v)]);
  if (Array.isArray(property.oneOf)) {
    return (property.oneOf as Array<{ const?: unknown; title?: unknown }>).map((o) => [String(o.const), typeof o.title === 'string' ? o.title : String(o.const)]);
  }
  return undefined;
}
