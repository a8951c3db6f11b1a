import { describe, expect, it } from 'vitest';
import { codecs } from './codecs.js';
import { modelEntry } from './model-table.js';
import { renderMessages } from './render-request.js';

const hermesCodec = codecs.hermes;
const qwen3Codec = codecs.qwen3;
const llamaCodec = codecs.llama;
import type { ToolDeclaration } from '../shared/tool-protocol.js';

const weather: ToolDeclaration = {
  name: 'get_weather',
  description: 'Get a weather forecast',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

describe('Hermes/Qwen rendering', () => {
  it('declares tools in the system prompt the way Qwen templates do', () => {
    expect(hermesCodec.renderSystem('You are terse.', [weather])).toBe(
      'You are terse.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
        'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
        '{"type": "function", "function": {"name": "get_weather", "description": "Get a weather forecast", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}}\n' +
        '</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
    );
    expect(hermesCodec.renderSystem('Plain.', [])).toBe('Plain.');
  });

  it('puts all of a turn’s results in one user message of <tool_response> blocks', () => {
    expect(hermesCodec.renderResults([{ name: 'a', content: '{"x": 1}' }, { name: 'b', content: '"ok"' }], false)).toEqual({
      role: 'user',
      content: '<tool_response>\n{"x": 1}\n</tool_response>\n<tool_response>\n"ok"\n</tool_response>',
    });
  });

  it('replays the assistant turn byte for byte and adds one message per hop', () => {
    const raw = 'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Boston"}}\n</tool_call>';
    const messages = renderMessages(qwen3Codec, {
      system: 'S',
      tools: [weather],
      toolChoice: 'auto',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', raw },
        { role: 'tool', results: [{ name: 'get_weather', content: '{"f": "sun"}' }] },
      ],
    }, false);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[2]!.content).toBe(raw);
  });
});

describe('Llama rendering', () => {
  it('declares tools in the system prompt and answers in the tool (ipython) role', () => {
    const system = llamaCodec.renderSystem('Be brief.', [weather])!;
    expect(system.startsWith('Environment: ipython\n')).toBe(true);
    expect(system).toContain('Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.');
    expect(system).toContain('    "type": "function",');
    expect(system.endsWith('Be brief.')).toBe(true);
    expect(llamaCodec.renderResults([{ name: 'a', content: '1' }], true)).toEqual({ role: 'tool', content: '1' });
    expect(llamaCodec.renderResults([{ name: 'a', content: '1' }, { name: 'b', content: '{"y": 2}' }], true)).toEqual({ role: 'tool', content: '[1, {"y": 2}]' });
    // A template without a tool role (Llama 3.0's) gets them in a user turn.
    expect(llamaCodec.renderResults([{ name: 'a', content: '1' }], false)).toEqual({ role: 'user', content: '1' });
  });
});

describe('the model table', () => {
  it.each([
    ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'hermes'],
    ['Qwen3-1.7B-q4f32_1-MLC', 'qwen3'],
    ['Qwen3.5-2B-q4f16_1-MLC', 'qwen3.5'],
    ['Llama-3.2-3B-Instruct-q4f16_1-MLC', 'llama'],
    ['Llama-3-8B-Instruct-q4f16_1-MLC', 'hermes'],
    ['Hermes-3-Llama-3.2-3B-q4f16_1-MLC', 'hermes'],
    ['SmolLM2-1.7B-Instruct-q4f16_1-MLC', 'hermes'],
  ])('%s speaks %s', (id, family) => {
    expect(modelEntry(id).family).toBe(family);
  });

  it('strips quantization and context-size suffixes from the base model', () => {
    expect(modelEntry('Llama-3.1-8B-Instruct-q4f32_1-MLC-1k').base).toBe('Llama-3.1-8B-Instruct');
    expect(modelEntry('Ministral-3-3B-Instruct-2512-BF16-q4f16_1-MLC').base).toBe('Ministral-3-3B-Instruct-2512-BF16');
  });
});
