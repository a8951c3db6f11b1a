// A model that reads no calls (a GGUF whose template writes none, loaded
// without `family`): the provider runs it without tools, and refuses tools
// as a chat does, with InvalidOptionsError('family'), before any request.
import { describe, expect, it } from 'vitest';
import { isInvalidOptionsError } from '../errors/index.js';
import type { ModelInfo } from '../shared/model.js';
import { prepareRequest } from './model-request.js';

const info: ModelInfo = { modelId: 'smollm2', template: 'gguf', contextWindow: 2048, grammarByDefault: true, engine: 'wllama', host: 'worker' };
const user = { role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] };

describe('a model without a call format', () => {
  it('answers a prompt without tools', () => {
    const { request } = prepareRequest({ prompt: [user] }, info);
    expect(request.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('refuses tools, and past calls it cannot write back, with InvalidOptionsError (family)', () => {
    const tools = [{ type: 'function' as const, name: 'add', inputSchema: { type: 'object' as const, properties: {} } }];
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isInvalidOptionsError(error) && error.option === 'family';
      }
      return false;
    };
    expect(refused(() => prepareRequest({ prompt: [user], tools }, info))).toBe(true);
    const call = { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'add', input: '{}' }] };
    const result = { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: 'c1', toolName: 'add', output: { type: 'json' as const, value: 1 } }] };
    expect(refused(() => prepareRequest({ prompt: [user, call, result] }, info))).toBe(true);
  });
});
