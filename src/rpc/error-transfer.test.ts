import { types } from 'node:util';
import { transferHandlers } from 'comlink';
import { describe, expect, it } from 'vitest';
import { ModelError, isModelError } from '../errors/index.js';
import { installErrorTransfer } from './error-transfer.js';

installErrorTransfer();
const handler = transferHandlers.get('throw')!;

/** An error as the other side of the worker boundary gets it. */
function across(value: unknown): unknown {
  const [wire] = handler.serialize({ value });
  try {
    handler.deserialize(structuredClone(wire));
  } catch (error) {
    return error;
  }
  throw new Error('deserializing a thrown value must throw it');
}

describe('errors across the worker boundary', () => {
  it('arrive as real Error instances of their own class, with name, message, stack and fields', () => {
    const sent = new ModelError('the GPU is busy', { engineError: 'ContextWindowSizeExceededError' });
    const got = across(sent) as ModelError;
    // A real Error (not an object that merely inherits from one), so consoles show it as one.
    expect(types.isNativeError(got)).toBe(true);
    expect(got).toBeInstanceOf(ModelError);
    expect(isModelError(got)).toBe(true);
    expect({ name: got.name, message: got.message, reason: got.reason, engineError: got.engineError }).toEqual({
      name: 'ModelError',
      message: 'The model failed: the GPU is busy',
      reason: 'the GPU is busy',
      engineError: 'ContextWindowSizeExceededError',
    });
    expect(got.stack).toBe(sent.stack);
    expect(String(got)).toBe('ModelError: The model failed: the GPU is busy');
  });
  it("another Error keeps its name, message and stack, as comlink's own handler sends it; a thrown value that is no Error arrives as it was", () => {
    const sent = new DOMException('The operation was aborted.', 'AbortError');
    const got = across(sent) as Error;
    expect(got).toBeInstanceOf(Error);
    expect({ name: got.name, message: got.message, stack: got.stack }).toEqual({ name: 'AbortError', message: 'The operation was aborted.', stack: sent.stack });
    expect(across({ name: 'NotAnError', message: 'a plain object' })).toEqual({ name: 'NotAnError', message: 'a plain object' });
    expect(across({ name: 'NotAnError', message: 'a plain object' })).not.toBeInstanceOf(Error);
    expect(across('a string')).toBe('a string');
  });
});
