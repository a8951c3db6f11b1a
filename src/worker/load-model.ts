// A model spec becomes a loaded model in the worker: its engine (WebLLM, or
// the strict fake, each loaded on demand), the family's codec, the
// conversation template, and what the page is told of it.
import { releaseProxy, type ProxyMethods } from 'comlink';
import { InvalidOptionsError } from '../errors/index.js';
import { codecs } from '../protocol/codecs.js';
import { convTemplate, type ConvTemplate } from '../protocol/conv-templates.js';
import { modelEntry } from '../protocol/model-table.js';
import type { ToolCodec } from '../protocol/types.js';
import type { FakeRequest, ModelSpec, Respond } from '../rpc/worker-protocol.js';
import type { LoadProgress, ModelInfo } from '../shared/model.js';
import type { Engine } from './engine.js';
import { engines } from './engine-modules.js';

export interface LoadedModel {
  engine: Engine;
  codec: ToolCodec;
  template: ConvTemplate;
  /** The model writes its own think block unless thinking is off. */
  thinks: boolean;
  info: ModelInfo;
}

/** `respond`: a fake's function script; `onRequest`: where a fake's record of each request goes. */
export async function loadModel(spec: ModelSpec, onProgress: ((p: LoadProgress) => void) | undefined, respond: Respond | undefined, onRequest: (request: FakeRequest) => void): Promise<LoadedModel> {
  try {
    return await open(spec, onProgress, respond, onRequest);
  } finally {
    // The progress callback is a comlink proxy: release its port once loading is over.
    (onProgress as Partial<ProxyMethods> | undefined)?.[releaseProxy]?.();
  }
}

async function open(spec: ModelSpec, onProgress: ((p: LoadProgress) => void) | undefined, respond: Respond | undefined, onRequest: (request: FakeRequest) => void): Promise<LoadedModel> {
  const entry = modelEntry(spec.modelId);
  const family = spec.family ?? entry.family;
  const codec = codecs[family];
  if (!codec) throw new InvalidOptionsError('family', `unknown model family ${JSON.stringify(family)}`);
  const templateName = (spec.kind === 'fake' ? spec.template : undefined) ?? entry.template;
  const template = convTemplate(templateName);
  if (!template) throw new InvalidOptionsError('template', `unknown conversation template ${JSON.stringify(templateName)}`);
  // Reports are not awaited one by one, but the last is, so none lands after the load resolves.
  let lastReport: Promise<unknown> = Promise.resolve();
  const report = (p: LoadProgress) => {
    lastReport = Promise.resolve(onProgress?.(p)).catch(() => undefined);
  };
  let engine: Engine;
  let contextWindow: number;
  if (spec.kind === 'fake') {
    const script = spec.outputs ? { outputs: spec.outputs } : respond ? { respond } : undefined;
    if (!script) throw new InvalidOptionsError('model', 'the fake model needs its script');
    // Loaded on demand, with xgrammar, so a worker running WebLLM never fetches either.
    const { FakeEngine, fakeLoad } = await engines.fake();
    contextWindow = spec.contextWindow;
    engine = new FakeEngine(script, {
      template,
      contextWindow,
      tokenDelayMs: spec.tokenDelayMs,
      onRequest: spec.recordRequests ? onRequest : undefined,
      firstTurn: spec.firstTurn,
    });
    // Nothing to download, but a UI built on progress reports should still see it go.
    await fakeLoad(spec.modelId, spec.load ?? {}, report);
  } else {
    // Loaded on demand, so a worker that only runs the fake never fetches WebLLM.
    const { loadWebLLM } = await engines.webllm();
    ({ engine, contextWindow } = await loadWebLLM(spec, report));
  }
  await lastReport;
  // A model the table knows thinks as the table says; one named only by its family, as Qwen3 does.
  const thinks = entry.known && spec.family === undefined ? entry.thinks : family === 'qwen3';
  return { engine, codec, template, thinks, info: { modelId: spec.modelId, family, template: templateName, contextWindow, grammarByDefault: spec.grammar ?? true } };
}
