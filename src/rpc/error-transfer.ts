// comlink's built-in "throw" handler keeps only name, message and stack. This
// one replaces it so a tabagent error arrives on the other side as the same
// class with all its fields. Both sides must install it. The generation
// channel (generation-channel.ts) sends its errors the same way: toWire and
// fromWire are the one way an error crosses.
import { transferHandlers, type TransferHandler } from 'comlink';
import { errorClasses, isTabAgentError, type TabAgentError } from '../errors/index.js';

interface Thrown {
  value: unknown;
}

interface SerializedTabAgentError {
  tabagent: { name: string; fields: Record<string, unknown> };
}

/** An error (or anything thrown) as it crosses to the other side. */
export type WireError = SerializedTabAgentError | { error: { name: string; message: string; stack?: string } } | { thrown: unknown };

let installed = false;

export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const original = transferHandlers.get('throw') as TransferHandler<Thrown, unknown>;
  const handler: TransferHandler<Thrown, WireError> = {
    canHandle: (value): value is Thrown => original.canHandle(value),
    serialize: (thrown) => [toWire(thrown.value), []],
    deserialize(wire) {
      throw fromWire(wire);
    },
  };
  transferHandlers.set('throw', handler);
}

/**
 * What crosses for `error`: a tabagent error with its class and fields;
 * another Error as comlink sends one (name, message, stack); anything else as
 * it is.
 */
export function toWire(error: unknown): WireError {
  if (isTabAgentError(error)) return { tabagent: serializeError(error) };
  if (error instanceof Error) return { error: { name: error.name, message: error.message, stack: error.stack } };
  return { thrown: error };
}

/** The error `toWire` sent, as a real Error (of its class, for a tabagent error). */
export function fromWire(wire: WireError): unknown {
  if ('tabagent' in wire) return deserializeError(wire.tabagent);
  // As comlink rebuilds one: a plain Error that keeps the name and stack it had.
  if ('error' in wire) return Object.assign(new Error(wire.error.message), wire.error);
  return wire.thrown;
}

function serializeError(error: TabAgentError): SerializedTabAgentError['tabagent'] {
  const fields: Record<string, unknown> = { message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) fields[key] = cloneable(value);
  if (error.cause !== undefined) fields.cause = cloneable(error.cause);
  return { name: error.name, fields };
}

function deserializeError({ name, fields }: SerializedTabAgentError['tabagent']): Error {
  const cls = Object.hasOwn(errorClasses, name) ? errorClasses[name] : undefined;
  // Built by Error itself (with its class's prototype), not Object.create: only
  // a real Error shows in consoles with its name, message and stack.
  const error: Error = Reflect.construct(Error, [String(fields.message ?? '')], cls ?? Error);
  // Own properties, as the constructor would have made them.
  for (const [key, value] of Object.entries(fields)) {
    Object.defineProperty(error, key, { value, writable: true, configurable: true, enumerable: key !== 'stack' && key !== 'message' && key !== 'cause' });
  }
  return error;
}

/** Keep what structured clone can carry; reduce errors and functions to their text. */
function cloneable(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  try {
    structuredClone(value);
    return value;
  } catch {
    return String(value);
  }
}
