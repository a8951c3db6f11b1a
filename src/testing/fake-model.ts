// A scripted model for tests, the app's own or tabagent's. A list script runs
// wholly in the worker; a function script runs on the page, called from the
// worker for each generation. Either way the model side (rendering, streaming,
// KV accounting) runs in the worker, and every request is recorded here.
import { FakeScriptError, InvalidOptionsError } from '../errors/index.js';
import { convTemplate } from '../protocol/conv-templates.js';
import { isModelFamily } from '../shared/tool-protocol.js';
import { FAKE_SPEC, type FakeSpec, type ScriptedModel } from '../model/scripted-model.js';
import type { FakeLoad, FakeModelOptions, FakeOutput, FakeRequest, FakeScript } from './types.js';
import { messageOf } from '../errors/message-of.js';

const DEFAULT_CONTEXT_WINDOW = 4096;

export interface FakeModel extends ScriptedModel {
  /** Every request the model received, in order (recorded before each generation ends). */
  readonly requests: readonly FakeRequest[];
  /** Throws FakeScriptError unless every scripted output was used (list scripts only). */
  assertComplete(): void;
  readonly [FAKE_SPEC]: FakeSpec;
}

export function fakeModel(script: FakeScript, options: FakeModelOptions = {}): FakeModel {
  if (options.family !== undefined && !isModelFamily(options.family)) throw new InvalidOptionsError('family', `unknown family ${JSON.stringify(options.family)}`);
  if (options.template !== undefined && !convTemplate(options.template)) throw new InvalidOptionsError('template', `unknown conversation template ${JSON.stringify(options.template)}`);
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  if (!Number.isInteger(contextWindow) || contextWindow <= 0) throw new InvalidOptionsError('contextWindow', 'must be a positive whole number of tokens');
  const requests: FakeRequest[] = [];
  let outputs: FakeOutput[] | undefined;
  let respond: FakeSpec['respond'];
  if (Array.isArray(script)) {
    outputs = script.map((output, turn) => checked(output, turn));
  } else if (typeof script === 'function') {
    respond = async (request) => {
      let output: FakeOutput;
      try {
        output = await (script as (r: FakeRequest) => FakeOutput | Promise<FakeOutput>)(request);
      } catch (cause) {
        throw new FakeScriptError(`The fake model's script threw at turn ${request.turn}: ${messageOf(cause)}`, request.turn, { cause });
      }
      return checked(output, request.turn);
    };
  } else {
    throw new InvalidOptionsError('script', 'must be a list of outputs or a function of the request');
  }
  return {
    requests,
    assertComplete() {
      if (outputs && requests.length < outputs.length) {
        throw new FakeScriptError(`The fake model's script has ${outputs.length} outputs but only ${requests.length} were used.`, requests.length);
      }
    },
    [FAKE_SPEC]: {
      modelId: options.modelId ?? 'fake-model',
      family: options.family,
      template: options.template,
      contextWindow,
      grammar: options.grammar ?? true,
      tokenDelayMs: options.tokenDelayMs ?? 0,
      ...(options.load ? { load: checkedLoad(options.load) } : {}),
      outputs,
      respond,
      record: options.recordRequests === false ? undefined : (request) => void requests.push(request),
      firstTurn: () => requests.length,
    },
  };
}

function checkedLoad(load: FakeLoad): FakeLoad {
  const { ms = 0, bytes = 0, fail } = load;
  if (!Number.isFinite(ms) || ms < 0 || !Number.isFinite(bytes) || bytes < 0) throw new InvalidOptionsError('load', 'ms and bytes must be numbers ≥ 0');
  if (fail !== undefined && typeof fail !== 'string') throw new InvalidOptionsError('load.fail', 'must be a string (the reason)');
  return { ms, bytes, ...(fail !== undefined ? { fail } : {}) };
}

function checked(output: unknown, turn: number): FakeOutput {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && typeof (output as { text?: unknown }).text === 'string') return output as FakeOutput;
  throw new FakeScriptError(`The fake model's script gave ${JSON.stringify(output)} at turn ${turn}; expected a string or { text }.`, turn);
}
