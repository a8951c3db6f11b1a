// What each model call of a run is asked with. By default: the run's tools,
// generation settings and system prompt, and its tool choice on the first
// call only (then 'auto', so a forced call is not forced forever). A
// `prepareStep` function may change any of these for the next call only.
import { InvalidOptionsError, UnknownToolError } from '../errors/index.js';
import type { GenerationOptions } from '../shared/model.js';
import type { ToolChoice } from '../shared/tool-protocol.js';
import type { ToolSet } from '../calls/tool-set.js';
import type { Step } from '../shared/chat.js';

/** Settings for one model call. */
export interface StepSettings {
  /** Offer only these tools of the chat (by name). */
  activeTools?: string[];
  toolChoice?: ToolChoice;
  /** Merged over the run's generation settings. */
  generation?: GenerationOptions;
  system?: string;
}

/** Called before each model call of a run; what it returns holds for that call only. */
export type PrepareStep = (state: { steps: readonly Step[]; hop: number }) => StepSettings | void | Promise<StepSettings | void>;

/** A model call's settings, resolved and checked. */
export interface ResolvedStep {
  tools: ToolSet;
  toolChoice: ToolChoice;
  generation?: GenerationOptions;
  system?: string;
  /** `system` is an imported chat's, not the app's: the model reads it as data. */
  foreignSystem?: boolean;
}

/** The run's defaults for a call, with what `prepareStep` returned over them; throws (typed) on settings the tools cannot honour. */
/** `chatTools`: every tool of the chat, which a step's `activeTools` picks from (the run's `tools` may be fewer). */
export function resolveStep(defaults: ResolvedStep & { hop: number; chatTools: ToolSet }, prepared: StepSettings | void, option = 'prepareStep'): ResolvedStep {
  if (prepared !== undefined && (typeof prepared !== 'object' || prepared === null)) throw new InvalidOptionsError(option, 'must return an object or nothing');
  const { activeTools, toolChoice, generation, system } = prepared ?? {};
  const tools = activeTools === undefined ? defaults.tools : activeSubset(defaults.chatTools, activeTools, `${option}.activeTools`);
  const choice = toolChoice ?? (defaults.hop === 0 ? defaults.toolChoice : 'auto');
  tools.checkChoice(choice, `${option}.toolChoice`);
  if (generation !== undefined && (typeof generation !== 'object' || generation === null)) throw new InvalidOptionsError(`${option}.generation`, 'must be an object');
  if (system !== undefined && typeof system !== 'string') throw new InvalidOptionsError(`${option}.system`, 'must be a string');
  return {
    tools,
    toolChoice: choice,
    generation: generation ? { ...defaults.generation, ...generation } : defaults.generation,
    system: system ?? defaults.system,
    // A system prompt prepareStep gives is the app's.
    ...(system === undefined && defaults.foreignSystem ? { foreignSystem: true } : {}),
  };
}

/** The chat's tools that `names` picks, in the chat's order. */
export function activeSubset(tools: ToolSet, names: unknown, option: string): ToolSet {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw new InvalidOptionsError(option, 'must be an array of tool names');
  for (const name of names as string[]) {
    if (!tools.get(name)) throw new UnknownToolError(name, tools.names);
  }
  return tools.subset(names as string[]);
}
