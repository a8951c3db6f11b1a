// What the model's response becomes in the chat: a stored assistant turn,
// its calls given ids and checked against the run's tools.
import { InvalidToolArgumentsError, UnknownToolError } from '../errors/index.js';
import { UNSAFE_KEY_MESSAGE, unsafeKeyPaths, withoutUnsafeKeys } from '../tools/unsafe-keys.js';
import type { ToolSet } from '../calls/tool-set.js';
import type { AssistantMessage, ToolCall } from '../shared/chat.js';
import type { ModelResponse } from '../shared/model.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../shared/json.js';

/** `writer`: the model that wrote it (`modelWriter`). */
export function assistantTurn(response: ModelResponse, tools: ToolSet, modelMs: number, newCallId: () => string, writer: string): AssistantMessage {
  const toolCalls =
    response.finishReason === 'abort'
      ? []
      : response.calls.map((call): ToolCall => {
          const id = newCallId();
          if (call.problem) {
            return { id, name: call.name, arguments: {}, error: problemText(call.name, call.problem), errorCode: call.problem.truncated ? 'truncated' : 'malformed' };
          }
          // Calls that did not come through the worker's scanner (a server's, the Prompt API's) get the bound it keeps.
          if (nestsDeeper(call.arguments)) {
            return { id, name: call.name, arguments: {}, error: problemText(call.name, { truncated: false, detail: `the arguments nest deeper than ${MAX_JSON_DEPTH} levels` }), errorCode: 'malformed' };
          }
          if (!tools.get(call.name)) {
            return { id, name: call.name, arguments: withoutUnsafeKeys(call.arguments), error: new UnknownToolError(call.name, tools.names).message, errorCode: 'unknown-tool' };
          }
          // Refused here, where the turn is read, not only when a handler is
          // about to run: the turn goes to the page (events, mixed turns,
          // returnToolRequests, the store, exports) before that, or instead.
          const reserved = unsafeKeyPaths(call.arguments);
          if (reserved.length) {
            const issues = reserved.map((path) => ({ path, message: UNSAFE_KEY_MESSAGE }));
            const error = new InvalidToolArgumentsError({ toolName: call.name, callId: id, issues }).message;
            return { id, name: call.name, arguments: withoutUnsafeKeys(call.arguments), error, errorCode: 'invalid-arguments' };
          }
          return { id, name: call.name, arguments: call.arguments };
        });
  return {
    role: 'assistant',
    raw: response.raw,
    ...(response.foreign ? { foreign: true as const } : { writer }),
    text: response.text,
    reasoning: response.reasoning,
    toolCalls,
    finishReason: response.finishReason,
    ...(response.usage.completionTokens > 0 ? { tokens: response.usage.completionTokens } : {}),
    promptTokens: response.usage.promptTokens,
    modelMs: Math.round(modelMs),
    activeTools: tools.names,
    createdAt: Date.now(),
  };
}

/** What the model had shown when its generation failed (or was stopped by a restart), kept as a turn cut short. */
export function cutShortTurn(text: string, error: unknown, writer: string): AssistantMessage {
  const finishReason = (error as { name?: unknown } | null)?.name === 'AbortError' ? 'abort' : 'error';
  return { role: 'assistant', raw: text, writer, text, reasoning: '', toolCalls: [], finishReason, createdAt: Date.now() };
}

function problemText(name: string, problem: { truncated: boolean; detail: string }): string {
  const which = name ? `the call to "${name}"` : 'a tool call';
  return problem.truncated
    ? `${which} was cut off by the token limit before it ended; it was not run. Call it again with shorter arguments.`
    : `${which} could not be read: ${problem.detail}. Write it again as valid JSON.`;
}
