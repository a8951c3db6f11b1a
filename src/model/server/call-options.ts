// A ModelRequest as a server model's call: the chat's turns as the
// provider's prompt (calls and results paired by id), the tools as its
// function tools, the choice and settings as its own. The provider runs
// nothing: its calls come back to tabagent's loop.
import type { ModelMessage, ModelRequest } from '../../shared/model.js';
import type { ToolChoice } from '../../shared/tool-protocol.js';
import type { ServerCallOptions, ServerPromptMessage } from './language-model.js';

export function callOptions(request: ModelRequest, signal: AbortSignal | undefined): ServerCallOptions {
  const { generation = {}, output, tools, toolChoice } = request;
  const options: ServerCallOptions = { prompt: promptOf(request), ...(signal ? { abortSignal: signal } : {}) };
  if (generation.maxTokens !== undefined) options.maxOutputTokens = generation.maxTokens;
  if (generation.temperature !== undefined) options.temperature = generation.temperature;
  if (generation.topP !== undefined) options.topP = generation.topP;
  if (generation.seed !== undefined) options.seed = generation.seed;
  if (generation.stopSequences?.length) options.stopSequences = generation.stopSequences;
  if (generation.thinking === false) options.reasoning = 'none';
  // Structured output reads no calls, so the tools are not offered.
  if (output) options.responseFormat = { type: 'json', schema: output.schema };
  else if (tools.length) {
    options.tools = tools.map((t) => ({ type: 'function', name: t.name, description: t.description, inputSchema: t.parameters }));
    options.toolChoice = choiceOf(toolChoice);
  }
  return options;
}

function choiceOf(choice: ToolChoice): NonNullable<ServerCallOptions['toolChoice']> {
  return typeof choice === 'object' ? { type: 'tool', toolName: choice.name } : { type: choice };
}

/**
 * The provider pairs a tool result with its call by id; the chat's turns
 * pair them by order (a turn's results follow its calls), so ids are made
 * here, the same for the same history on every hop.
 */
function promptOf(request: ModelRequest): ServerPromptMessage[] {
  const prompt: ServerPromptMessage[] = request.system ? [{ role: 'system', content: request.system }] : [];
  let pending: Array<{ id: string; name: string }> = [];
  let made = 0;
  const idFor = () => `call_${made++}`;
  for (const message of request.messages) {
    if (message.role === 'user') prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
    else if (message.role === 'assistant') {
      const { text, calls } = turnOf(message);
      pending = calls.map((c) => ({ id: idFor(), name: c.name }));
      const content: Extract<ServerPromptMessage, { role: 'assistant' }>['content'] = text ? [{ type: 'text', text }] : [];
      calls.forEach((c, i) => content.push({ type: 'tool-call', toolCallId: pending[i]!.id, toolName: c.name, input: c.arguments }));
      prompt.push({ role: 'assistant', content });
    } else {
      const content = message.results.map((r) => {
        const at = pending.findIndex((p) => p.name === r.name);
        const id = at < 0 ? idFor() : pending.splice(at, 1)[0]!.id;
        return { type: 'tool-result' as const, toolCallId: id, toolName: r.name, output: { type: 'text' as const, value: r.content } };
      });
      prompt.push({ role: 'tool', content });
    }
  }
  return prompt;
}

/** A turn as data: a server reads no markup, so a turn another engine wrote goes as its text and calls. */
function turnOf(message: Extract<ModelMessage, { role: 'assistant' }>): { text: string; calls: Array<{ name: string; arguments: object }> } {
  if (!('raw' in message)) return message;
  return { text: message.text ?? message.raw, calls: message.calls ?? [] };
}
