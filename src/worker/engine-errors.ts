// What a generation failure becomes on our side, the same for WebLLM and the
// fake engine that stands for it: a lost device, or a ModelError that keeps
// the engine's own error name and message.
import { DeviceLostError, ModelError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';

export function isDeviceLoss(cause: unknown): boolean {
  return (cause as { name?: string })?.name === 'DeviceLostError' || /device (was )?lost/i.test(messageOf(cause));
}

export function generationError(cause: unknown): Error {
  if (isDeviceLoss(cause)) return new DeviceLostError(messageOf(cause), { cause });
  const name = (cause as { name?: unknown })?.name;
  return new ModelError(messageOf(cause), { cause, engineError: typeof name === 'string' && name !== 'Error' ? name : undefined });
}
