// The baseline: the same fake model and the same scripted output, driven
// directly in a worker, with no tabagent around it (no page API, no comlink,
// no protocol, no validation, no storage).
import type { EngineMessage } from '../../src/shared/tool-protocol.js';
import { convTemplate } from '../../src/protocol/conv-templates.js';
import type { EngineRequest } from '../../src/worker/engine.js';
import { FakeEngine } from '../../src/worker/fake/fake-engine.js';

/**
 * `requests`: the engine requests tabagent made for the same turns (their
 * conversations and grammars), so each turn here does the same model work:
 * rendering the template, judging the KV cache, checking the grammar.
 */
export type BaselineRequest = { id: number } & (
  | { kind: 'ping' }
  | { kind: 'generate'; outputs: string[]; requests?: EngineRequest[]; tokenDelayMs?: number }
  // One model kept between messages, a turn a message (bench/page/design-hop.ts).
  | { kind: 'open'; outputs: string[]; requests: EngineRequest[] }
  | { kind: 'turn' }
);

let session: { engine: FakeEngine; requests: EngineRequest[]; turn: number } | undefined;

self.onmessage = async (event: MessageEvent<BaselineRequest>) => {
  const request = event.data;
  if (request.kind === 'ping') return self.postMessage({ id: request.id });
  if (request.kind === 'open') {
    session = { engine: new FakeEngine({ outputs: request.outputs }, { template: convTemplate('chatml')!, contextWindow: 1 << 20, tokenDelayMs: 0 }), requests: request.requests, turn: 0 };
    return self.postMessage({ id: request.id });
  }
  if (request.kind === 'turn') {
    const { engine, requests } = session!;
    const { text } = await engine.complete(requests[session!.turn++]!, () => undefined);
    return self.postMessage({ id: request.id, text });
  }
  const engine = new FakeEngine({ outputs: request.outputs }, { template: convTemplate('chatml')!, contextWindow: 1 << 20, tokenDelayMs: request.tokenDelayMs ?? 0 });
  const messages: EngineMessage[] = [{ role: 'user', content: 'go' }];
  let deltas = 0;
  const each: number[] = [];
  const started = performance.now();
  for (let i = 0; i < request.outputs.length; i++) {
    const t = performance.now();
    await engine.complete(request.requests?.[i] ?? { messages }, () => void deltas++);
    each.push(performance.now() - t);
  }
  self.postMessage({ id: request.id, ms: performance.now() - started, each, deltas });
};
