// Calls told as they are written, through the call scanner, for every
// family's format, whatever pieces the output arrives in.
import { describe, expect, it } from 'vitest';
import type { CallInputEvent, FinishReason } from '../shared/model.js';
import type { ModelFamily } from '../shared/tool-protocol.js';
import { CallScanner } from './call-scanner.js';
import { codecs } from './codecs.js';
import { toolCallsText } from './write-calls.js';

const families = Object.keys(codecs) as ModelFamily[];

/** The output fed `size` characters at a time; the events taken after each piece, and what each was taken after. */
function scan(family: ModelFamily, output: string, size = 1, reason: FinishReason = 'stop') {
  const scanner = new CallScanner(codecs[family].format, false, codecs[family].think);
  const events: Array<CallInputEvent & { after: number }> = [];
  for (let at = 0; at < output.length; at += size) {
    scanner.push(output.slice(at, at + size));
    events.push(...scanner.takeCallInputs().map((e) => ({ ...e, after: Math.min(at + size, output.length) })));
  }
  const turn = scanner.finish(reason);
  events.push(...scanner.takeCallInputs().map((e) => ({ ...e, after: output.length + 1 })));
  return { turn, events };
}

/** Each input's name, what its deltas joined into, the call it was tied to, and when its last delta came. */
function inputs(events: ReadonlyArray<CallInputEvent & { after: number }>) {
  const byIndex = new Map<number, { name: string; json: string; call?: number | null; lastDelta: number; ends: number }>();
  for (const event of events) {
    if (event.type === 'start') {
      expect(byIndex.has(event.index)).toBe(false);
      byIndex.set(event.index, { name: event.name, json: '', lastDelta: -1, ends: 0 });
      continue;
    }
    const input = byIndex.get(event.index)!;
    // Nothing of an input after its end.
    expect(input.ends).toBe(0);
    if (event.type === 'delta') {
      input.json += event.delta;
      input.lastDelta = event.after;
    } else {
      input.ends++;
      input.call = event.call;
    }
  }
  return [...byIndex.values()];
}

const trip = { city: 'Zürich "old town"', stops: ['Lapa', { name: 'Urca', hours: 2.5 }], note: 'line one\nline two 😀', count: 12, ok: true, none: null };

describe('call inputs as they are written', () => {
  for (const family of families) {
    it(`${family}: one start, deltas that join into JSON.stringify of the arguments read, one end tied to the call, in any pieces`, () => {
      const output = toolCallsText([{ name: 'plan_trip', arguments: trip }, { name: 'get_time', arguments: {} }], family, 'Let me plan.');
      for (const size of [1, 3, 7, output.length]) {
        const { turn, events } = scan(family, output, size);
        expect(turn.calls.map((c) => c.name)).toEqual(['plan_trip', 'get_time']);
        const told = inputs(events);
        expect(told.map((i) => [i.name, i.call, i.ends])).toEqual([
          ['plan_trip', 0, 1],
          ['get_time', 1, 1],
        ]);
        told.forEach((input, i) => expect(input.json).toBe(JSON.stringify(turn.calls[i]!.arguments)));
      }
      // Char by char, most of the first call's input came before the reply ended.
      const { events } = scan(family, output);
      const early = events.filter((e) => e.type === 'delta' && e.index === 0 && e.after <= output.length).map((e) => (e as { delta: string }).delta);
      expect(early.length).toBeGreaterThan(5);
    });
  }

  it('an opener in mid-line prose that turns out prose is ended, tied to no call', () => {
    const output = 'See <tool_call>\n{"name": "plan_trip", "arguments": {"city": "Oslo"} and more prose';
    const { turn, events } = scan('hermes', output);
    expect(turn.calls).toEqual([]);
    expect(turn.text).toContain('<tool_call>');
    expect(inputs(events).map((i) => [i.name, i.call, i.ends])).toEqual([['plan_trip', null, 1]]);
  });

  it('a call cut by an abort is ended, tied to no call; one cut by the token limit is tied to its broken call', () => {
    const output = '<tool_call>\n{"name": "plan_trip", "arguments": {"city": "Oslo", "no';
    const aborted = scan('hermes', output, 1, 'abort');
    expect(aborted.turn.calls).toEqual([]);
    expect(inputs(aborted.events).map((i) => [i.json, i.call, i.ends])).toEqual([['{"city":"Oslo","no', null, 1]]);
    const cut = scan('hermes', output, 1, 'length');
    expect(cut.turn.calls).toMatchObject([{ name: 'plan_trip', problem: { truncated: true } }]);
    expect(inputs(cut.events).map((i) => [i.call, i.ends])).toEqual([[0, 1]]);
  });

  it('a call whose JSON needed mending streams what was sure, and the rest once read', () => {
    const output = "<tool_call>\n{\"name\": \"plan_trip\", \"arguments\": {\"city\": \"Oslo\", 'days': 2,}}\n</tool_call>";
    const { turn, events } = scan('hermes', output);
    const [input] = inputs(events);
    expect(input!.json).toBe(JSON.stringify(turn.calls[0]!.arguments));
    expect(input!.json).toBe('{"city":"Oslo","days":2}');
    // Up to the single quotes as it was written; the rest only once the call was whole.
    expect(events.filter((e) => e.type === 'delta').at(-1)).toMatchObject({ delta: '"days":2}' });
  });

  it('calls it cannot follow as they are written (a pythonic list) are not told: they arrive whole', () => {
    const { turn, events } = scan('llama', '[plan_trip(city="Oslo"), get_time()]');
    expect(turn.calls.map((c) => c.name)).toEqual(['plan_trip', 'get_time']);
    expect(events).toEqual([]);
  });

  it('nothing is told where calls are not read (no tools, tool choice none)', () => {
    const scanner = new CallScanner(null);
    scanner.push(toolCallsText([{ name: 'plan_trip', arguments: { city: 'Oslo' } }]));
    scanner.finish('stop');
    expect(scanner.takeCallInputs()).toEqual([]);
  });
});
