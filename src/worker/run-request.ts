// One request through a loaded model: its messages rendered (in the family's
// format with an MLC conversation template, or with the model's own chat
// template), constrained by the grammar, streamed through the call scanner
// (so call markup never shows as text), and the finished output parsed.
import { InvalidOptionsError } from '../errors/index.js';
import { CallScanner } from '../protocol/call-scanner.js';
import { replyReasoning } from '../protocol/conv-templates.js';
import { buildConstraint, buildOutputConstraint } from '../protocol/grammar.js';
import { renderMessages } from '../protocol/render-request.js';
import type { Reasoning, ToolCodec } from '../protocol/types.js';
import type { CallInputEvent, ModelRequest, ModelResponse } from '../shared/model.js';
import type { ResponseFormat, ToolDeclaration } from '../shared/tool-protocol.js';
import type { EngineResult, Sampling } from './engine.js';
import type { LoadedModel } from './load-model.js';
import { StopHold } from './stop-hold.js';

/**
 * Tokens of nothing but whitespace in a row after which a reply is stopped,
 * as cut off (finishReason 'length'). A small model can fall into writing
 * blank lines or spaces until its window is full: minutes on a CPU for an
 * answer that shows nothing. No reply a person reads has this many
 * whitespace tokens in a row (tokenizers merge a run of spaces or newlines
 * into a few tokens), so every engine stops there.
 */
export const BLANK_TOKEN_LIMIT = 64;

/** Where the visible text, the reasoning and the calls go as the model writes them; no `callInput`, no one follows calls as they are written. */
export interface RequestOutput {
  text(delta: string): void;
  reasoning(delta: string): void;
  callInput?: (event: CallInputEvent) => void;
}

export async function runRequest(model: LoadedModel, request: ModelRequest, out: RequestOutput): Promise<ModelResponse> {
  const { codec, thinks, info } = model;
  // No call format to teach or read: tools would be declared in words the model never learned, and its calls go unread.
  if (model.tools === false && request.tools.length > 0) {
    throw new InvalidOptionsError('family', `${info.modelId}'s chat template shows no tool-call format tabagent reads; pass family (for example 'hermes', taught in the system prompt) to give it tools`);
  }
  const generation = request.generation ?? {};
  const stops = generation.stopSequences ?? [];
  // An empty stop string ends every reply at its first token (WebLLM) or before it (llama.cpp).
  if (!Array.isArray(stops) || stops.some((stop) => typeof stop !== 'string' || stop === '')) throw new InvalidOptionsError('generation.stopSequences', 'must be a list of non-empty strings');
  let reasoning: Reasoning;
  let complete: (sampling: Sampling, onDelta: (delta: string) => void) => Promise<EngineResult>;
  if (model.input === 'chat') {
    // A template that opens the think block in its reply header always
    // thinks: WebLLM's empty think block would land inside it.
    reasoning = replyReasoning(model.template, thinks, generation.thinking);
    const thinking = reasoning === 'opened' ? undefined : generation.thinking;
    const messages = renderMessages(codec, request, model.template.roles.tool !== undefined);
    const extra_body = thinking === undefined ? undefined : { enable_thinking: thinking };
    complete = (sampling, onDelta) => model.engine.complete({ ...sampling, messages, extra_body }, onDelta);
  } else {
    const prompt = model.prompt.render(request, generation.thinking);
    // The model's own template decides: a generation prompt that ends inside a think block, or none.
    reasoning = prompt.trimEnd().endsWith(codec.think.open) ? 'opened' : thinks && generation.thinking !== false ? 'think' : 'none';
    complete = (sampling, onDelta) => model.engine.complete({ ...sampling, prompt }, onDelta);
  }
  // Structured output: the reply is one JSON value, never calls.
  const calls = !request.output && request.tools.length > 0 && request.toolChoice !== 'none';
  const scanner = new CallScanner(calls ? codec.format : null, reasoning === 'opened', codec.think, out.callInput !== undefined);
  const grammar = request.grammar ?? info.grammarByDefault;
  const sampling: Sampling = {
    response_format: !grammar
      ? undefined
      : request.output
        ? buildOutputConstraint(request.output.schema, reasoning, codec.think)
        : callConstraint(codec, request, reasoning),
    max_tokens: generation.maxTokens,
    temperature: generation.temperature,
    top_p: generation.topP,
    seed: generation.seed,
    stop: stops.length ? [...stops] : undefined,
  };
  // Engines stream a token per delta (a whitespace token always decodes whole).
  let blank = 0;
  let stuck = false;
  let produced = 0;
  const hold = new StopHold(stops);
  const show = (raw: string) => {
    const text = scanner.push(raw);
    out.reasoning(scanner.takeReasoning());
    out.text(text);
    for (const event of scanner.takeCallInputs()) out.callInput?.(event);
  };
  const result = await complete(sampling, (delta) => {
    produced++;
    blank = /^\s*$/.test(delta) ? blank + 1 : 0;
    if (blank === BLANK_TOKEN_LIMIT) {
      stuck = true;
      model.engine.interrupt();
    }
    show(hold.push(delta));
  });
  show(hold.end(result.text));
  // Stopped by the guard, not by the caller: cut off, like a reply at the token limit.
  const finishReason = stuck && result.finishReason === 'abort' ? 'length' : result.finishReason;
  // An interrupted engine may report no usage (wllama): the tokens streamed are what it wrote.
  const usage = stuck && !result.usage.completionTokens ? { ...result.usage, completionTokens: produced } : result.usage;
  const parsed = scanner.finish(finishReason);
  out.reasoning(scanner.takeReasoning());
  out.text(parsed.delta);
  for (const event of scanner.takeCallInputs()) out.callInput?.(event);
  return { raw: result.text, text: parsed.text, reasoning: parsed.reasoning, calls: parsed.calls, finishReason, usage };
}

/**
 * Per codec and tool list (the same object hop after hop: rpc/request-wire.ts),
 * the call grammar for each tool choice and way of reasoning, built once:
 * every hop of a chat asks for the same, and an app's tools may be dozens.
 */
const constraints = new WeakMap<ToolCodec, WeakMap<readonly ToolDeclaration[], Map<string, ResponseFormat | undefined>>>();

function callConstraint(codec: ToolCodec, { tools, toolChoice }: ModelRequest, reasoning: Reasoning): ResponseFormat | undefined {
  let lists = constraints.get(codec);
  if (!lists) constraints.set(codec, (lists = new WeakMap()));
  let built = lists.get(tools);
  if (!built) lists.set(tools, (built = new Map()));
  const key = JSON.stringify([toolChoice, reasoning]);
  if (!built.has(key)) built.set(key, buildConstraint(codec.format, tools, toolChoice, reasoning, codec.think));
  return built.get(key);
}
