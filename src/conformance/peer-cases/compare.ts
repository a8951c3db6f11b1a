// Run a peer's case through tabagent's CallScanner (whole, and streamed in
// pieces) and say whether what tabagent reads is what the peer's test expects.
import { codecs } from '../../protocol/codecs.js';
import { CallScanner } from '../../protocol/call-scanner.js';
import type { JsonValue } from '../../shared/json.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';
import type { PeerCall, PeerCase } from './types.js';

/** How the case is fed: all at once, or `n` characters at a time. */
type Feed = 'whole' | 1 | 3;
export const FEEDS: readonly Feed[] = ['whole', 1, 3];

export interface Reading {
  calls: ParsedCall[];
  /** The visible text of the final reply. */
  text: string;
  /** The visible text as it streamed (the deltas joined). */
  streamed: string;
  reasoning: string;
}

export function readCase(peerCase: PeerCase, feed: Feed): Reading {
  // As the worker builds it for a request with tools: the family's call format and think markers.
  const codec = codecs[peerCase.family];
  const scanner = new CallScanner(codec.format, peerCase.thinkOpened ?? false, codec.think);
  const size = feed === 'whole' ? Math.max(1, peerCase.output.length) : feed;
  let streamed = '';
  for (let i = 0; i < peerCase.output.length; i += size) streamed += scanner.push(peerCase.output.slice(i, i + size));
  const end = scanner.finish(peerCase.finish);
  streamed += end.delta;
  return { calls: end.calls, text: end.text, streamed, reasoning: end.reasoning };
}

/**
 * Qwen XML parameter values are bare text: tabagent keeps them as strings and
 * argument validation coerces them with the tool's schema, where the peers
 * convert them in the parser with the same schema. A peer's 42 is compared as
 * "42"; objects and arrays, which both read as JSON, as they are.
 */
function asQwenXmlValue(value: JsonValue): JsonValue {
  if (value === null || typeof value === 'object') return value;
  return String(value);
}

function sameArguments(peerCase: PeerCase, expected: NonNullable<PeerCall['arguments']>, ours: ParsedCall): boolean {
  if (ours.problem) return false;
  const want =
    peerCase.family === 'qwen3.5' ? Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, asQwenXmlValue(v)])) : expected;
  return JSON.stringify(sortKeys(want)) === JSON.stringify(sortKeys(ours.arguments));
}

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k]!)]),
  );
}

/** Where tabagent's reading differs from the peer's expectation; empty when it is the same. */
export function differences(peerCase: PeerCase, reading: Reading): string[] {
  const found: string[] = [];
  const { calls: want, content, reasoning } = peerCase.expected;
  if (reading.calls.length !== want.length) found.push(`${reading.calls.length} call(s), the peer ${want.length}`);
  want.forEach((call, i) => {
    const ours = reading.calls[i];
    if (!ours) return;
    if (ours.problem) found.push(`call ${i} (${ours.name}) reported ${ours.problem.truncated ? 'truncated' : 'malformed'}`);
    if (ours.name !== call.name) found.push(`call ${i} named ${JSON.stringify(ours.name)}, the peer ${JSON.stringify(call.name)}`);
    if (call.arguments === null) found.push(`call ${i}: the peer passes on arguments that are not an object`);
    else if (call.arguments !== undefined && !ours.problem && !sameArguments(peerCase, call.arguments, ours))
      found.push(`call ${i} arguments ${JSON.stringify(ours.arguments)}, the peer ${JSON.stringify(call.arguments)}`);
  });
  // tabagent trims the visible text; the peers' content is compared trimmed too.
  if (content !== undefined && reading.text !== (content ?? '').trim()) found.push(`text ${JSON.stringify(reading.text)}, the peer ${JSON.stringify(content)}`);
  if (reasoning !== undefined && reading.reasoning !== reasoning.trim()) found.push(`reasoning ${JSON.stringify(reading.reasoning)}, the peer ${JSON.stringify(reasoning)}`);
  return found;
}
