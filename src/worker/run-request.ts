// One request through a loaded model: its messages rendered in the family's
// format, constrained by the grammar, streamed through the call scanner (so
// call markup never shows as text), and the finished output parsed.
import { CallScanner } from '../protocol/call-scanner.js';
import { replyReasoning } from '../protocol/conv-templates.js';
import { buildConstraint, buildOutputConstraint } from '../protocol/grammar.js';
import { renderMessages } from '../protocol/render-request.js';
import type { ModelRequest, ModelResponse } from '../shared/model.js';
import type { EngineRequest } from './engine.js';
import type { LoadedModel } from './load-model.js';

/** Where the visible text and the reasoning go as the model writes them. */
export interface RequestOutput {
  text(delta: string): void;
  reasoning(delta: string): void;
}

export async function runRequest(model: LoadedModel, request: ModelRequest, out: RequestOutput): Promise<ModelResponse> {
  const { engine, codec, template, thinks, info } = model;
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
  const result = await engine.complete(engineRequest, (delta) => {
    const text = scanner.push(delta);
    out.reasoning(scanner.takeReasoning());
    out.text(text);
  });
  const parsed = scanner.finish(result.finishReason);
  out.reasoning(scanner.takeReasoning());
  out.text(parsed.delta);
  return { raw: result.text, text: parsed.text, reasoning: parsed.reasoning, calls: parsed.calls, finishReason: result.finishReason, usage: result.usage };
}
