// A model spec becomes a loaded model in the worker: its engine (WebLLM,
// wllama or the strict fake, each loaded on demand), the family's codec, how
// its prompts are rendered, and what the page is told of it.
import { releaseProxy, type ProxyMethods } from 'comlink';
import { InvalidOptionsError, isModelLoadError, isShaderF16UnsupportedError, isTabAgentError, isWebGPUUnavailableError } from '../errors/index.js';
import { refusalError, refusalMark, wasmRefusal } from './csp-refusals.js';
import { convTemplate, type ConvTemplate } from '../protocol/conv-templates.js';
import { modelEntry } from '../protocol/model-table.js';
import { chooseTemplate } from '../protocol/template-choice.js';
import type { TemplatePrompt } from './template-prompt.js';
import type { ToolCodec } from '../protocol/types.js';
import type { EngineInfo, FakeRequest, GgufSpec, ModelSpec, Respond } from '../rpc/worker-protocol.js';
import type { LoadProgress } from '../shared/model.js';
import type { Engine, PromptRequest } from './engine.js';
import { engines } from './engine-modules.js';
import { codecFor } from './codec-for.js';

interface Common {
  codec: ToolCodec;
  /** The model has a tool-call format (a GGUF whose template shows none, and no family given, has not). */
  tools?: boolean;
  /** The model writes its own think block unless thinking is off. */
  thinks: boolean;
  info: EngineInfo;
}

/**
 * A loaded model. `chat`: the engine takes the conversation and applies an
 * MLC conversation template (WebLLM, the fake); `prompt`: the engine takes a
 * prompt rendered with the model's own chat template (wllama).
 */
export type LoadedModel = Common & ({ input: 'chat'; engine: Engine; template: ConvTemplate } | { input: 'prompt'; engine: Engine<PromptRequest>; prompt: TemplatePrompt });

type Report = (p: LoadProgress) => void;

/** `respond`: a fake's function script; `onRequest`: where a fake's record of each request goes. */
export async function loadModel(spec: ModelSpec, onProgress: Report | undefined, respond: Respond | undefined, onRequest: (request: FakeRequest) => void): Promise<LoadedModel> {
  // Reports are not awaited one by one, but the last is, so none lands after the load resolves.
  let lastReport: Promise<unknown> = Promise.resolve();
  const report = (p: LoadProgress) => {
    lastReport = Promise.resolve(onProgress?.(p)).catch(() => undefined);
  };
  const mark = refusalMark();
  try {
    const refused = wasmRefusal(spec.modelId);
    if (refused) throw refused;
    const model = await open(spec, report, respond, onRequest).catch(async (error: unknown) => {
      // An engine file, or a fetch of WebLLM's, the page's policy refused: say which, and which directive.
      if (isModelLoadError(error) || (!isTabAgentError(error) && (error as Error)?.name !== 'AbortError')) throw (await refusalError(spec.modelId, mark)) ?? error;
      throw error;
    });
    await lastReport;
    return model;
  } finally {
    // The progress callback is a comlink proxy: release its port once loading is over.
    (onProgress as Partial<ProxyMethods> | undefined)?.[releaseProxy]?.();
  }
}

function open(spec: ModelSpec, report: Report, respond: Respond | undefined, onRequest: (request: FakeRequest) => void): Promise<LoadedModel> {
  if (spec.kind === 'gguf') return openGguf(spec, report);
  if (spec.kind === 'webllm' && spec.fallback) {
    const { fallback } = spec;
    // WebLLM checks the GPU before it downloads anything: a browser that cannot run it costs nothing.
    // By code, not instanceof: the prebuilt engine file throws its own copy of these classes.
    return openMlc(spec, report, respond, onRequest).catch((error: unknown) => {
      if (isWebGPUUnavailableError(error) || isShaderF16UnsupportedError(error)) return openGguf(fallback, report);
      throw error;
    });
  }
  return openMlc(spec, report, respond, onRequest);
}

/**
 * WebLLM, or the fake that stands for it: MLC conversation templates. WebLLM
 * renders prompts with the template the model's mlc-chat-config.json names,
 * so that one wins over the model table's (protocol/template-choice.ts).
 */
async function openMlc(spec: Exclude<ModelSpec, GgufSpec>, report: Report, respond: Respond | undefined, onRequest: (request: FakeRequest) => void): Promise<LoadedModel> {
  const entry = modelEntry(spec.modelId);
  let engine: Engine;
  let contextWindow: number;
  /** The template the model's config names, as the engine read it. */
  let configTemplate: string | undefined;
  if (spec.kind === 'fake') {
    const script = spec.outputs ? { outputs: spec.outputs } : respond ? { respond } : undefined;
    if (!script) throw new InvalidOptionsError('model', 'the fake model needs its script');
    // The fake's "mlc-chat-config.json" names its `template`, else the table's; it renders with it, as WebLLM would.
    configTemplate = spec.template ?? entry.template;
    const template = convTemplate(configTemplate);
    if (!template) throw new InvalidOptionsError('template', `unknown conversation template ${JSON.stringify(configTemplate)}`);
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
    ({ engine, contextWindow, configTemplate } = await loadWebLLM(spec, report));
  }
  const { template: templateName, family, mismatch } = chooseTemplate(spec.modelId, entry, configTemplate, spec.family);
  // Known to be there: chooseTemplate keeps the table's template when the config's is unknown.
  const template = convTemplate(templateName)!;
  const codec = codecFor(family);
  // A model the table knows thinks as the table says, while it runs the table's family; one named only by its family, as Qwen3 does.
  const thinks = entry.known && spec.family === undefined && family === entry.family ? entry.thinks : family === 'qwen3';
  const info: EngineInfo = {
    modelId: spec.modelId,
    family,
    template: templateName,
    contextWindow,
    grammarByDefault: spec.grammar ?? true,
    engine: spec.kind,
    ...(mismatch ? { templateMismatch: mismatch } : {}),
  };
  return { input: 'chat', engine, template, codec, thinks, info };
}

/**
 * A GGUF on wllama: its own chat template (or the app's), the family the spec
 * names or the template shows. Both are settled from the file's header,
 * before the download, so a template no one can render fails first.
 */
async function openGguf(spec: GgufSpec, report: Report): Promise<LoadedModel> {
  // Loaded on demand, so no other model ever fetches wllama, its 10 MB of WebAssembly, or the Jinja engine.
  const { loadGguf, ggufTemplate, prepareWllama } = await engines.wllama();
  await prepareWllama(spec.modelId);
  const loaded = await loadGguf(spec, report, (chatTemplate) => ggufTemplate(spec, chatTemplate));
  const { family, prompt, codec } = loaded.prepared;
  const info: EngineInfo = {
    modelId: spec.modelId,
    ...(family ? { family } : {}),
    template: 'gguf',
    contextWindow: loaded.contextWindow,
    grammarByDefault: spec.grammar ?? true,
    engine: 'wllama',
    threads: loaded.threads,
  };
  return { input: 'prompt', engine: loaded.engine, prompt, codec, thinks: spec.thinks ?? family === 'qwen3', info, tools: family !== undefined };
}
