import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../shared/model.js';
import { CallScanner } from './call-scanner.js';
import { hermesJson as hermesSyntax } from './formats/hermes-json.js';
import { gemma4Call } from './formats/gemma4.js';
import { llamaJson as llamaSyntax } from './formats/llama-json.js';
import { ministralArgs, mistralList } from './formats/mistral.js';
import { phi4ToolCall } from './formats/phi4-mini.js';
import { qwenXml } from './formats/qwen-xml.js';
import { codecs } from './codecs.js';
import type { CallFormat, ThinkMarkers } from './types.js';
import type { ParsedTurn } from '../shared/tool-protocol.js';

/** Parse a finished output in one go; `truncated`: it ended at the token limit. */
function scanOutput(format: CallFormat | null, raw: string, truncated: boolean | FinishReason): ParsedTurn {
  const scanner = new CallScanner(format);
  scanner.push(raw);
  const { text, reasoning, calls } = scanner.finish(truncated === true ? 'length' : truncated === false ? 'stop' : truncated);
  return { text, reasoning, calls };
}

const call = (name: string, args: unknown) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

/** Feed the output in pieces of `size` characters, as a stream would. */
function streamed(syntax: CallFormat | null, raw: string, size: number, truncated: boolean | FinishReason = false, think?: ThinkMarkers) {
  const scanner = new CallScanner(syntax, false, think);
  const deltas: string[] = [];
  for (let i = 0; i < raw.length; i += size) deltas.push(scanner.push(raw.slice(i, i + size)));
  const end = scanner.finish(truncated === true ? 'length' : truncated === false ? 'stop' : truncated);
  deltas.push(end.delta);
  return { ...end, streamedText: deltas.join(''), deltas };
}

describe('Hermes/Qwen calls', () => {
  it('reads plain text as text', () => {
    expect(scanOutput(hermesSyntax, '  Hello there.\n', false)).toEqual({ text: 'Hello there.', reasoning: '', calls: [] });
  });

  it('reads a call and keeps the text around it', () => {
    const out = scanOutput(hermesSyntax, `Let me check.\n${call('get_weather', { location: 'Boston, MA' })}`, false);
    expect(out.text).toBe('Let me check.');
    expect(out.calls).toEqual([{ name: 'get_weather', arguments: { location: 'Boston, MA' } }]);
  });

  it('reads several calls in order', () => {
    const out = scanOutput(hermesSyntax, `${call('a', { x: 1 })}\n${call('b', {})}\n${call('c', { y: [1, 2] })}`, false);
    expect(out.calls.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(out.text).toBe('');
  });

  it.each([
    ['a trailing comma', '{"name": "f", "arguments": {"n": 3,},}'],
    ['single quotes', "{'name': 'f', 'arguments': {'n': 3}}"],
    ['Python literals', '{"name": "f", "arguments": {"n": 3, "ok": True, "none": None}}'],
    ['a code fence', '```json\n{"name": "f", "arguments": {"n": 3}}\n```'],
  ])('repairs %s', (_, body) => {
    const out = scanOutput(hermesSyntax, `<tool_call>\n${body}\n</tool_call>`, false);
    expect(out.calls).toHaveLength(1);
    expect(out.calls[0]).toMatchObject({ name: 'f', arguments: { n: 3 } });
  });

  it('reads arguments given as a JSON string, and missing arguments as {}', () => {
    const out = scanOutput(hermesSyntax, `<tool_call>{"name": "f", "arguments": "{\\"n\\": 2}"}</tool_call>\n<tool_call>{"name": "g"}</tool_call>`, false);
    expect(out.calls).toEqual([
      { name: 'f', arguments: { n: 2 } },
      { name: 'g', arguments: {} },
    ]);
  });

  it('never repairs a call cut off by the token limit', () => {
    const out = scanOutput(hermesSyntax, 'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"loca', true);
    expect(out.text).toBe('Checking.');
    expect(out.calls).toEqual([{ name: 'get_weather', problem: { truncated: true, detail: expect.stringContaining('token limit') } }]);
  });

  it('accepts a complete call whose closing tag is missing', () => {
    const out = scanOutput(hermesSyntax, `<tool_call>\n{"name": "f", "arguments": {"n": 1}}`, false);
    expect(out.calls).toEqual([{ name: 'f', arguments: { n: 1 } }]);
  });

  it('reports an unreadable call at the start of a line as broken', () => {
    const out = scanOutput(hermesSyntax, '<tool_call>\nnot json at all\n</tool_call>', false);
    expect(out.calls).toEqual([{ name: '', problem: { truncated: false, detail: expect.stringContaining('not json') } }]);
  });

  it('ignores call markup inside a code block the user asked for', () => {
    const raw = 'Here is the format:\n```\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\n```\nThat is all.';
    const out = scanOutput(hermesSyntax, raw, false);
    expect(out.calls).toEqual([]);
    expect(out.text).toBe(raw);
  });

  it('treats <tool_call> in prose as prose unless a well-formed call follows', () => {
    const prose = scanOutput(hermesSyntax, 'Models write <tool_call> tags to call tools.', false);
    expect(prose).toMatchObject({ text: 'Models write <tool_call> tags to call tools.', calls: [] });
    const inline = scanOutput(hermesSyntax, `Sure! ${call('f', { n: 1 })}`, false);
    expect(inline).toMatchObject({ text: 'Sure!', calls: [{ name: 'f', arguments: { n: 1 } }] });
  });

  it('moves a leading think block to reasoning', () => {
    const out = scanOutput(hermesSyntax, `<think>\nThe user wants weather.\n</think>\n\n${call('w', {})}`, false);
    expect(out).toEqual({ text: '', reasoning: 'The user wants weather.', calls: [{ name: 'w', arguments: {} }] });
  });

  it('with no syntax (tool choice none) reads everything as text', () => {
    const raw = call('f', {});
    expect(scanOutput(null, raw, false)).toEqual({ text: raw, reasoning: '', calls: [] });
  });
});

describe('streaming', () => {
  const raw = `<think>hmm</think>\nI will look that up.\n${call('get_weather', { location: 'Boston' })}\nDone: it is <b>sunny</b>.\n\`\`\`\n<tool_call>x</tool_call>\n\`\`\``;

  it.each([1, 2, 3, 7, 50])('streams the same text as the final reply, %i chars at a time, and never a call', (size) => {
    const out = streamed(hermesSyntax, raw, size);
    expect(out.streamedText).toBe(out.text);
    expect(out.text).toBe('I will look that up.\n\nDone: it is <b>sunny</b>.\n```\n<tool_call>x</tool_call>\n```');
    expect(out.calls).toHaveLength(1);
    // Before the code block, no delta ever shows part of the call.
    const beforeFence = out.deltas.join('').split('```')[0]!;
    expect(beforeFence).not.toMatch(/<tool|get_weather/);
  });

  it('holds text that could be a call opener, then releases it', () => {
    const scanner = new CallScanner(hermesSyntax);
    expect(scanner.push('a <tool')).toBe('a');
    expect(scanner.push('box> b')).toBe(' <toolbox> b');
  });

  it('never streams a cut-off call', () => {
    const out = streamed(hermesSyntax, 'Checking.\n<tool_call>\n{"name": "w", "argu', 1, true);
    expect(out.streamedText).toBe('Checking.');
  });
});

describe('Llama 3 JSON calls', () => {
  it('reads a bare JSON call', () => {
    const out = scanOutput(llamaSyntax, '{"name": "get_weather", "parameters": {"location": "Boston"}}', false);
    expect(out.calls).toEqual([{ name: 'get_weather', arguments: { location: 'Boston' } }]);
    expect(out.text).toBe('');
  });

  it('reads <|python_tag|> and several ;-separated calls', () => {
    const out = scanOutput(llamaSyntax, '<|python_tag|>{"name": "a", "parameters": {}}; {"name": "b", "arguments": {"x": 1}}', false);
    expect(out.calls).toEqual([
      { name: 'a', arguments: {} },
      { name: 'b', arguments: { x: 1 } },
    ]);
  });

  it('leaves prose and other JSON alone', () => {
    expect(scanOutput(llamaSyntax, 'The answer is {"a": 1}.', false).calls).toEqual([]);
    expect(scanOutput(llamaSyntax, '{"result": 42}', false)).toMatchObject({ text: '{"result": 42}', calls: [] });
  });

  it('reports a truncated call', () => {
    const out = scanOutput(llamaSyntax, '{"name": "w", "parameters": {"q": "long', true);
    expect(out.calls).toEqual([{ name: 'w', problem: { truncated: true, detail: expect.any(String) } }]);
  });

  it('streams nothing of a call', () => {
    const out = streamed(llamaSyntax, '{"name": "w", "parameters": {"q": "x"}}\nAnd some text', 1);
    expect(out.streamedText).toBe('And some text');
    expect(out.calls).toEqual([{ name: 'w', arguments: { q: 'x' } }]);
  });
});

describe('replies cut short', () => {
  it('a reply cut at the token limit right after a mid-line <tool_call> in prose stays prose', () => {
    const out = scanOutput(hermesSyntax, 'Models write <tool_call> tags', 'length');
    expect(out).toMatchObject({ text: 'Models write <tool_call> tags', calls: [] });
  });

  it('a Llama ;-list cut after a complete first call keeps that call and reports the cut one', () => {
    const out = scanOutput(llamaSyntax, '{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"x": ', 'length');
    expect(out.calls).toEqual([
      { name: 'a', arguments: {} },
      { name: 'b', problem: { truncated: true, detail: expect.stringContaining('token limit') } },
    ]);
  });

  it('an aborted reply that had opened a call shows none of the call markup', () => {
    const out = streamed(hermesSyntax, 'Checking.\n<tool_call>\n{"name": "get_weather", "argu', 3, 'abort');
    expect(out).toMatchObject({ text: 'Checking.', streamedText: 'Checking.', calls: [] });
  });
});

describe('every format the prebuilt models write', () => {
  const weather = { name: 'get_weather', arguments: { location: 'Boston', days: 2 } };
  const time = { name: 'get_time', arguments: {} };
  it.each<[string, CallFormat, string, ParsedTurn['calls']]>([
    ['Qwen2.5-Coder <tools>', hermesSyntax, '<tools>\n{"name": "get_weather", "arguments": {"location": "Boston", "days": 2}}\n</tools>', [weather]],
    ['Llama 3.2 pythonic', llamaSyntax, '[get_weather(location="Boston", days=2), get_time()]', [weather, time]],
    ['Mistral v0.3 [TOOL_CALLS] list', mistralList, '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"location": "Boston", "days": 2}}, {"name": "get_time", "arguments": {}}]', [weather, time]],
    ['Ministral-3 [TOOL_CALLS]name[ARGS]', ministralArgs, '[TOOL_CALLS]get_weather[ARGS]{"location": "Boston", "days": 2}[TOOL_CALLS]get_time[ARGS]{}', [weather, time]],
    ['Ministral-3 without [ARGS]', ministralArgs, '[TOOL_CALLS]get_weather{"location": "Boston", "days": 2}', [weather]],
    ['Phi-4-mini <|tool_call|>', phi4ToolCall, '<|tool_call|>[{"name": "get_weather", "arguments": {"location": "Boston", "days": 2}}]<|/tool_call|>', [weather]],
    ['Phi-4-mini, closing marker missing', phi4ToolCall, '<|tool_call|>[{"name": "get_time", "arguments": {}}]', [time]],
    ['Phi-4-mini functools[…]', phi4ToolCall, 'functools[{"name": "get_weather", "arguments": {"location": "Boston", "days": 2}}, {"name": "get_time", "arguments": {}}]', [weather, time]],
    ['Gemma 4', gemma4Call, '<|tool_call>call:get_weather{days:2,location:<|"|>Boston<|"|>}<tool_call|>', [{ name: 'get_weather', arguments: { days: 2, location: 'Boston' } }]],
    ['Qwen3.5 XML parameters', qwenXml, '<tool_call>\n<function=get_weather>\n<parameter=location>\nBoston\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>', [{ name: 'get_weather', arguments: { location: 'Boston', days: '2' } }]],
  ])('%s', (_, format, raw, calls) => {
    for (const size of [1, 3, raw.length]) {
      const out = streamed(format, `Sure.\n${raw}`, size);
      if (format.anchor === 'reply-start') continue;
      expect(out.calls).toEqual(calls);
      expect(out.streamedText).toBe('Sure.');
    }
    // As the whole reply (how reply-start formats must write it).
    const whole = streamed(format, raw, 2);
    expect(whole.calls).toEqual(calls);
    expect(whole.streamedText).toBe('');
  });

  it('a reply whose prompt already opened <think> (DeepSeek-R1, QwQ, Qwen3.5): reasoning, then the answer, no stray </think>', () => {
    const scanner = new CallScanner(hermesSyntax, true);
    const shown = scanner.push('The user greets me.\n</think>\n\nHello!');
    const end = scanner.finish('stop');
    expect({ shown: shown + end.delta, reasoning: end.reasoning, text: end.text }).toEqual({ shown: 'Hello!', reasoning: 'The user greets me.', text: 'Hello!' });
  });
});

describe('reasoning as it streams', () => {
  it.each([1, 3, 1000])('hands out the think block in pieces that add up to the final reasoning (%i characters at a time)', (size) => {
    for (const [raw, opened] of [
      [`<think>\n  Weigh A </th against B.\n\n</think>\n\nB it is.`, false],
      ['I should call the tool. </think>\n' + call('f', { a: 1 }), true],
      ['<think>cut off mid-thought </thi', false],
    ] as const) {
      const scanner = new CallScanner(hermesSyntax, opened);
      const sofar: string[] = [];
      let reasoning = '';
      for (let i = 0; i < raw.length; i += size) {
        scanner.push(raw.slice(i, i + size));
        reasoning += scanner.takeReasoning();
        sofar.push(reasoning);
      }
      const end = scanner.finish('stop');
      reasoning += scanner.takeReasoning();
      expect(reasoning).toBe(end.reasoning);
      // What was shown at each point is never taken back: no half tag, no whitespace that ended the block.
      for (const shown of sofar) expect(end.reasoning.startsWith(shown)).toBe(true);
      expect(end.reasoning.length).toBeGreaterThan(0);
    }
  });
});

// Classes of difference found by running vLLM's, llama.cpp's and SGLang's
// parser cases (issue 21); the cases themselves are in src/conformance/peer-cases.
describe("what the peers' cases found", () => {
  const MINISTRAL_THINK = codecs.ministral.think;
  const truncated = { truncated: true, detail: expect.stringContaining('token limit') };
  const malformed = { truncated: false, detail: expect.any(String) };

  it.each([1, 3, 1000])('Llama JSON calls on separate lines are all read (%i characters at a time)', (size) => {
    const out = streamed(llamaSyntax, '{"name": "a", "parameters": {"x": 1}}\n{"name": "b", "parameters": {}}\n\n{"name": "c", "arguments": {}}', size);
    expect(out.calls).toEqual([
      { name: 'a', arguments: { x: 1 } },
      { name: 'b', arguments: {} },
      { name: 'c', arguments: {} },
    ]);
    expect(out.streamedText).toBe('');
  });

  it('[TOOL_CALLS]name with no arguments is malformed, and a name cut by the limit is truncated: neither runs as a guess', () => {
    expect(scanOutput(ministralArgs, '[TOOL_CALLS]get_time', 'stop').calls).toEqual([{ name: 'get_time', problem: malformed }]);
    expect(scanOutput(ministralArgs, '[TOOL_CALLS]get_time[ARGS]', 'stop').calls).toEqual([{ name: 'get_time', problem: malformed }]);
    expect(scanOutput(ministralArgs, '[TOOL_CALLS]g', 'length').calls).toEqual([{ name: '', problem: truncated }]);
    expect(scanOutput(ministralArgs, '[TOOL_CALLS]get_weather[ARGS]{"city": "Par', 'length').calls).toEqual([{ name: 'get_weather', problem: truncated }]);
  });

  it.each<[string, CallFormat, string, string]>([
    ['Mistral', mistralList, '[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1', '[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1}'],
    ['Ministral', ministralArgs, '[TOOL_CALLS]a[ARGS]{"x": 1', '[TOOL_CALLS]a[ARGS]{"x": '],
    ['Gemma 4', gemma4Call, '<|tool_call>call:a{x:1', '<|tool_call>call:a{x:1}'],
    ['Phi-4-mini', phi4ToolCall, '<|tool_call|>[{"name": "a", "arguments": {"x": 1', '<|tool_call|>[{"name": "a", "arguments": {"x": 1}}, {"name": '],
  ])('%s: a control-token opener after text, never closed, is a call the model hears of, not prose', (_, format, stopped, cut) => {
    const atStop = scanOutput(format, `Let me check. ${stopped}`, 'stop');
    expect(atStop).toMatchObject({ text: 'Let me check.', calls: [{ problem: malformed }] });
    const atLimit = streamed(format, `Let me check. ${cut}`, 3, 'length');
    expect(atLimit).toMatchObject({ text: 'Let me check.', streamedText: 'Let me check.' });
    expect(atLimit.calls.at(-1)).toMatchObject({ problem: truncated });
  });

  it('Gemma 4: the limit cutting a second call written right after a first keeps the first and reports the second truncated', () => {
    const out = streamed(gemma4Call, '<|tool_call>call:a{x:1}<tool_call|><|tool_call>call:b{y:<|"|>lo', 3, 'length');
    expect(out.calls).toEqual([{ name: 'a', arguments: { x: 1 } }, { name: 'b', problem: truncated }]);
    expect(out.streamedText).toBe('');
  });

  it.each([1, 3, 1000])("Ministral-3 Reasoning's [THINK]…[/THINK] is reasoning, and a call inside it never runs (%i characters at a time)", (size) => {
    const thinkThenCall = streamed(ministralArgs, '[THINK]I need the weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', size, 'stop', MINISTRAL_THINK);
    expect(thinkThenCall).toMatchObject({ reasoning: 'I need the weather.', streamedText: '', calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const callInThought = streamed(ministralArgs, '[THINK]Maybe [TOOL_CALLS]rm[ARGS]{"all": true}? No.[/THINK]It is sunny.', size, 'stop', MINISTRAL_THINK);
    expect(callInThought).toMatchObject({ reasoning: 'Maybe [TOOL_CALLS]rm[ARGS]{"all": true}? No.', text: 'It is sunny.', streamedText: 'It is sunny.', calls: [] });
  });

  it('a Qwen XML parameter missing </parameter> makes the call malformed instead of swallowing the next parameter', () => {
    const raw = '<tool_call>\n<function=f>\n<parameter=a>\n1\n<parameter=b>\n2\n</parameter>\n</function>\n</tool_call>';
    expect(scanOutput(qwenXml, raw, 'stop').calls).toEqual([{ name: 'f', problem: malformed }]);
  });

  it.each<[string, CallFormat, string]>([
    ['Hermes', hermesSyntax, '<tool_call>\n{"name": "f", "arguments": {"n": 1e999}}\n</tool_call>'],
    ['Llama', llamaSyntax, '{"name": "f", "parameters": {"n": [-1e999]}}'],
    ['Mistral', mistralList, '[TOOL_CALLS] [{"name": "f", "arguments": {"n": 1e999}}]'],
    ['Gemma 4', gemma4Call, '<|tool_call>call:f{n:1e999}<tool_call|>'],
  ])('%s: 1e999 is not a number a handler can get (never Infinity)', (_, format, raw) => {
    expect(scanOutput(format, raw, 'stop').calls).toEqual([{ name: 'f', problem: malformed }]);
  });

  it('the code after <|python_tag|> is a call of the python tool (as Llama 3.1 writes code for its ipython tool), never text', () => {
    const out = streamed(llamaSyntax, '<|python_tag|>import math\nprint(math.sqrt(2))', 3);
    expect(out).toMatchObject({ streamedText: '', calls: [{ name: 'python', arguments: { code: 'import math\nprint(math.sqrt(2))' } }] });
  });

  it.each<[string, CallFormat, string]>([
    ['Mistral v0.3', mistralList, '[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1}}'],
    ['Mistral v0.3, after the comma', mistralList, '[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1}}, '],
    ['Phi-4-mini', phi4ToolCall, '<|tool_call|>[{"name": "a", "arguments": {"x": 1}}'],
    ['Phi-4-mini functools', phi4ToolCall, 'functools[{"name": "a", "arguments": {"x": 1}}'],
    ['Llama, after the ;', llamaSyntax, '{"name": "a", "parameters": {"x": 1}};'],
  ])('%s: a list cut right after a complete call keeps that call and invents no second one', (_, format, raw) => {
    expect(scanOutput(format, raw, 'length').calls).toEqual([{ name: 'a', arguments: { x: 1 } }]);
  });

  it('Mistral v0.3: a second call cut mid-name is truncated, not named like the first', () => {
    expect(scanOutput(mistralList, '[TOOL_CALLS] [{"name": "a", "arguments": {}}, {"na', 'length').calls).toEqual([{ name: 'a', arguments: {} }, { name: '', problem: truncated }]);
  });

  it('Phi-4-mini cut right after its opener is truncated, not malformed', () => {
    expect(scanOutput(phi4ToolCall, '<|tool_call|>', 'length').calls).toEqual([{ name: '', problem: truncated }]);
    expect(scanOutput(phi4ToolCall, 'functools[', 'length').calls).toEqual([{ name: '', problem: truncated }]);
  });
});

describe("what the peers' cases found, second pass", () => {
  const malformed = { truncated: false, detail: expect.any(String) };
  const weather = { name: 'get_weather', arguments: { city: 'Paris' } };

  it.each([1, 3, 1000])('a pythonic list with mismatched brackets is one malformed call, with no stray bracket shown (%i at a time)', (size) => {
    const out = streamed(llamaSyntax, '[foo(x=1])]', size);
    expect(out).toMatchObject({ streamedText: '', calls: [{ name: 'foo', problem: malformed }] });
  });

  it('a pythonic list with one unreadable call runs the others and reports that one in its place', () => {
    expect(scanOutput(llamaSyntax, `[bad(x=b'z'), get_weather(city="Paris")]`, 'stop').calls).toEqual([{ name: 'bad', problem: malformed }, weather]);
    // Quotes that do not pair leave nothing to split the list by: all of it is malformed, no call guessed.
    expect(scanOutput(llamaSyntax, `[get_weather(city="Paris"), f(a='x 'y', b='z')]`, 'stop').calls).toEqual([{ name: '', problem: malformed }]);
  });

  it("Llama 3.1's built-in tool syntax after <|python_tag|> is a call of that tool with its arguments", () => {
    expect(scanOutput(llamaSyntax, `<|python_tag|>brave_search.call(query="Paris weather")`, 'stop').calls).toEqual([{ name: 'brave_search', arguments: { query: 'Paris weather' } }]);
  });

  it.each([1, 3, 1000])('calls each after its own <|python_tag|> are all read, and one after text too (%i at a time)', (size) => {
    const repeated = streamed(llamaSyntax, '<|python_tag|>{"name": "a", "parameters": {}}<|python_tag|>{"name": "b", "parameters": {"x": 1}}', size);
    expect(repeated).toMatchObject({ streamedText: '', calls: [{ name: 'a', arguments: {} }, { name: 'b', arguments: { x: 1 } }] });
    const afterText = streamed(llamaSyntax, 'Some intro. <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}', size);
    expect(afterText).toMatchObject({ streamedText: 'Some intro.', calls: [weather] });
  });

  it.each([1, 3, 1000])('a Qwen XML call whose <tool_call> wrapper is missing is still read (%i at a time)', (size) => {
    const out = streamed(qwenXml, 'Checking.\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\nDone.', size);
    expect(out).toMatchObject({ streamedText: 'Checking.\n\nDone.', calls: [weather] });
  });
});

describe('what the templates write', () => {
  it.each([1, 3, 1000])("Gemma 4's thought channel is reasoning, never text (%i characters at a time)", (size) => {
    const out = streamed(gemma4Call, "<|channel>thought\nI'll check.<channel|><|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>", size, 'stop', codecs.gemma4.think);
    expect(out).toMatchObject({ reasoning: "I'll check.", streamedText: '', calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
  });

  it.each([1, 3, 1000])('Llama JSON written compactly (no space after the colon) is a call too (%i at a time)', (size) => {
    const out = streamed(llamaSyntax, '{"name":"get_weather","parameters":{"location":"Boston"}}', size);
    expect(out).toMatchObject({ streamedText: '', calls: [{ name: 'get_weather', arguments: { location: 'Boston' } }] });
    expect(streamed(llamaSyntax, '{"result": 42}', size)).toMatchObject({ streamedText: '{"result": 42}', calls: [] });
  });
});
