// What the worker exposes over comlink: load a model, then generate one
// request at a time. It renders requests in the model family's format,
// constrains them with a grammar, streams the visible text and parses calls.
import { releaseProxy, type ProxyMethods } from 'comlink';
import { InvalidOptionsError } from '../errors/index.js';
import type { LoadProgress, ModelInfo, ModelRequest, ModelResponse } from '../shared/model.js';
import { CallScanner } from '../protocol/call-scanner.js';
import { codecs } from '../protocol/codecs.js';
import { convTemplate, replyReasoning, type ConvTemplate } from '../protocol/conv-templates.js';
import { buildConstraint, buildOutputConstraint } from '../protocol/grammar.js';
import { modelEntry } from '../protocol/model-table.js';
import { renderMessages } from '../protocol/render-request.js';
import type { ToolCodec } from '../protocol/types.js';
import { GenerationSender } from '../rpc/generation-channel.js';
import type { Engine, EngineRequest } from './engine.js';
import { engines } from './engine-modules.js';
import type { FakeRequest } from '../rpc/worker-protocol.js';
import type { Respond } from './fake/fake-engine.js';
import type { ModelSpec, WebLLMSource } from '../rpc/worker-protocol.js';

interface Loaded {
  key: string;
  engine: Engine;
  codec: ToolCodec;
  template: ConvTemplate;
  /** The model writes its own think block unless thinking is off. */
  thinks: boolean;
  info: ModelInfo;
}

export class EngineHost {
  #sender: GenerationSender | null = null;
  #loading: { key: string; promise: Promise<Loaded> } | null = null;
  // Requests run one at a time: the engine has one KV cache and an engine-wide interrupt.
  #tail: Promise<unknown> = Promise.resolve();
  #queued = new Set<number>();
  #running: { id: number; engine?: Engine; cancelled: boolean } | null = null;

  /** Liveness: the page pings while it waits on a generation. */
  ping(): true {
    return true;
  }

  /** The port that news of each generation (text, records, end) goes out on. */
  connect(port: MessagePort): void {
    this.#sender = new GenerationSender(port);
  }

  /**
   * Load a model. Loading the same model again (a second agent) shares the first load.
   * `respond` is a fake model's script function (comlink-proxied from the page).
   */
  async load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void, respond?: Respond): Promise<ModelInfo> {
    const key = spec.kind === 'fake' ? `fake:${spec.modelId}` : `webllm:${spec.modelId}`;
    if (this.#loading?.key === key) return (await this.#loading.promise).info;
    const previous = this.#loading?.promise;
    const promise = (async (): Promise<Loaded> => {
      try {
        await previous?.then((p) => p.engine.unload(), () => undefined);
        return { key, ...(await open(spec, onProgress, respond, (request) => this.#noteRequest(request))) };
      } finally {
        // The progress callback is a comlink proxy: release its port once loading is over.
        (onProgress as Partial<ProxyMethods> | undefined)?.[releaseProxy]?.();
      }
    })();
    this.#loading = { key, promise };
    promise.catch(() => {
      if (this.#loading?.promise === promise) this.#loading = null;
    });
    return (await promise).info;
  }

  generate(id: number, request: ModelRequest): Promise<ModelResponse> {
    this.#queued.add(id);
    const run = this.#tail.then(() => this.#run(id, request));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Stop one request: interrupt it if it runs, drop it if it waits. */
  cancel(id: number): void {
    const running = this.#running;
    if (running?.id === id) {
      running.cancelled = true;
      running.engine?.interrupt();
    } else {
      this.#queued.delete(id);
    }
  }

  /** Ask about, or delete, a WebLLM model in the browser's cache (works with any model loaded, or none). */
  async modelCache(action: 'has' | 'delete', source: WebLLMSource): Promise<boolean> {
    const { isCached, deleteCached } = await engines.webllm();
    if (action === 'has') return isCached(source);
    await deleteCached(source);
    return false;
  }

  #noteRequest(request: FakeRequest): void {
    if (this.#running) this.#sender?.request(this.#running.id, request);
  }

  async unload(): Promise<void> {
    const loading = this.#loading;
    this.#loading = null;
    await loading?.promise.then((l) => l.engine.unload(), () => undefined);
  }

  async #run(id: number, request: ModelRequest): Promise<ModelResponse> {
    const sender = this.#sender;
    const running: { id: number; engine?: Engine; cancelled: boolean } = { id, cancelled: !this.#queued.delete(id) };
    this.#running = running;
    try {
      if (!this.#loading) throw new InvalidOptionsError('model', 'no model is loaded');
      const { engine, codec, template, thinks, info } = await this.#loading.promise;
      if (running.cancelled) return aborted();
      const generation = request.generation ?? {};
      // A template that opens the think block in its reply header always
      // thinks: WebLLM's empty think block would land inside it.
      const reasoning = replyReasoning(template, thinks, generation.thinking);
      const thinking = reasoning === 'opened' ? undefined : generation.thinking;
      // Structured output: the reply is one JSON value, never calls.
      const calls = !request.output && request.tools.length > 0 && request.toolChoice !== 'none';
      const scanner = new CallScanner(calls ? codec.format : null, reasoning === 'opened');
      const grammar = request.grammar ?? info.grammarByDefault;
      const engineRequest: EngineRequest = {
        messages: renderMessages(codec, request, template.roles.tool !== undefined),
        response_format: !grammar
          ? undefined
          : request.output
            ? buildOutputConstraint(request.output.schema, reasoning)
            : buildConstraint(codec.format, request.tools, request.toolChoice, reasoning),
        max_tokens: generation.maxTokens,
        temperature: generation.temperature,
        top_p: generation.topP,
        seed: generation.seed,
        extra_body: thinking === undefined ? undefined : { enable_thinking: thinking },
      };
      running.engine = engine;
      const result = await engine.complete(engineRequest, (delta) => {
        const text = scanner.push(delta);
        sender?.reasoning(id, scanner.takeReasoning());
        sender?.text(id, text);
      });
      const parsed = scanner.finish(result.finishReason);
      sender?.reasoning(id, scanner.takeReasoning());
      sender?.text(id, parsed.delta);
      return { raw: result.text, text: parsed.text, reasoning: parsed.reasoning, calls: parsed.calls, finishReason: result.finishReason, usage: result.usage };
    } finally {
      if (this.#running === running) this.#running = null;
      sender?.end(id);
    }
  }
}

function aborted(): ModelResponse {
  return { raw: '', text: '', reasoning: '', calls: [], finishReason: 'abort', usage: { promptTokens: 0, completionTokens: 0 } };
}

async function open(spec: ModelSpec, onProgress: ((p: LoadProgress) => void) | undefined, respond: Respond | undefined, onRequest: (request: FakeRequest) => void): Promise<Omit<Loaded, 'key'>> {
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
