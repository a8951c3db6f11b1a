// When a run stops before the model is done: small predicates over the steps
// so far, checked after each model call whose calls would run. A run that
// meets one resolves normally, with that step's calls left pending; the hop
// cap (maxToolHops) stays the safety net and rejects with ToolHopsError.
import type { Step } from '../shared/chat.js';

/** True to stop the run here, the latest step's calls left pending. */
export type StopCondition = (state: { steps: readonly Step[] }) => boolean | Promise<boolean>;

/** Stop once `hops` tool round trips of this run are done (the next calls wait for you). */
export function hopCountIs(hops: number): StopCondition {
  if (!Number.isInteger(hops) || hops < 0) throw new TypeError(`hopCountIs takes a whole number ≥ 0, not ${JSON.stringify(hops)}`);
  return ({ steps }) => steps.length - 1 >= hops;
}

/** Stop when the model calls any of these tools; the call is left for you (it does not run). */
export function hasToolCall(...names: string[]): StopCondition {
  return ({ steps }) => steps.at(-1)?.toolCalls.some((call) => names.includes(call.name)) ?? false;
}

/** Whether any of the conditions holds (they are asked in order, and no further once one does). */
export async function shouldStop(conditions: readonly StopCondition[], steps: readonly Step[]): Promise<boolean> {
  for (const condition of conditions) {
    if (await condition({ steps })) return true;
  }
  return false;
}
