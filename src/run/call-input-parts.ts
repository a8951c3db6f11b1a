// A step's calls as stream parts while the model writes them, under the ids
// the calls get once read: a `tool-call` part follows its input parts under
// the same id.
import type { CallInputEvent } from '../shared/model.js';
import type { StreamPart } from './chat-stream.js';

export interface CallInputParts {
  /** The generation's call input events (GenerateOptions.onCallInput). */
  onCallInput(event: CallInputEvent): void;
  /** Ids for the response's calls, taken in order: a call told as it was written keeps its input's id. */
  readonly callIds: () => string;
}

export function callInputParts(step: number, newCallId: () => string, show: (part: StreamPart) => void): CallInputParts {
  /** Each input's id, by its index in the generation. */
  const ids = new Map<number, string>();
  /** The id of each input that became a call, by the call's place in the response. */
  const tied = new Map<number, string>();
  let next = 0;
  return {
    onCallInput(event) {
      if (event.type === 'start') {
        const callId = newCallId();
        ids.set(event.index, callId);
        show({ type: 'tool-input-start', step, callId, toolName: event.name });
        return;
      }
      const callId = ids.get(event.index);
      if (callId === undefined) return;
      if (event.type === 'delta') return show({ type: 'tool-input-delta', step, callId, delta: event.delta });
      if (event.call !== null) tied.set(event.call, callId);
      show({ type: 'tool-input-end', step, callId, call: event.call !== null });
    },
    callIds: () => tied.get(next++) ?? newCallId(),
  };
}
