// tabagent/ai-sdk on an agent whose model is a server model: the AI SDK's
// generateText and generateObject through languageModelOf(agent), answered
// by another AI SDK model (MockLanguageModelV4) behind tabagent.
import { generateObject, generateText, tool } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatchedAgent } from '../test-support/server-agent.js';
import { languageModelOf } from './provider.js';

const finish = (unified: string) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: { inputTokens: { total: 9, noCache: 9, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } } });

function scripted(...turns: Array<Array<Record<string, unknown>>>): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream([...turns[next++]!, finish(turns[next - 1]!.some((p) => p.type === 'tool-call') ? 'tool-calls' : 'stop')] as never) }) });
}

describe('languageModelOf(agent) with a server model', () => {
  it('generateObject: the JSON response format reaches the server, and the object comes back', async () => {
    const server = scripted([{ type: 'text-delta', id: 't', delta: '{"name":"Ada","age":36}' }]);
    const { agent, loaded } = await dispatchedAgent({ model: server });
    await loaded;
    const { object } = await generateObject({ model: languageModelOf(agent), schema: z.object({ name: z.string(), age: z.number() }), prompt: 'Ada, 36' });
    expect(object).toEqual({ name: 'Ada', age: 36 });
    expect(server.doStreamCalls[0]!.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object', required: ['name', 'age'] } });
  });

  it('generateText with a tool: the step’s call and the AI SDK’s result reach the server paired, as data', async () => {
    const server = scripted([{ type: 'tool-call', toolCallId: 'x', toolName: 'weather', input: '{"city":"Paris"}' }], [{ type: 'text-delta', id: 't', delta: 'Sunny.' }]);
    const { agent, loaded } = await dispatchedAgent({ model: server });
    await loaded;
    const weather = tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' });
    const { text } = await generateText({ model: languageModelOf(agent), prompt: 'Paris?', tools: { weather }, stopWhen: () => false, maxRetries: 0 });
    expect(text).toBe('Sunny.');
    const prompt = server.doStreamCalls[1]!.prompt as unknown as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const call = prompt.find((m) => m.role === 'assistant')!.content.find((p) => p.type === 'tool-call')!;
    expect(call).toMatchObject({ toolName: 'weather', input: { city: 'Paris' } });
    expect(prompt.find((m) => m.role === 'tool')!.content[0]).toMatchObject({ toolCallId: call.toolCallId, toolName: 'weather' });
  });
});
