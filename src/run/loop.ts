// The run, src/run/: one run of a chat, model → tools → model. The loop
// (this module); each step's settings (prepare-step.ts) and the conditions
// that stop it (stop-conditions.ts); the request fitted to the model's
// window (fitting-request.ts, context-window.ts); the model's turn, read and
// kept as it streams (model-turn.ts, draft-writer.ts); a hop's results
// landing while the next request goes out (landing.ts); what the run has
// done (run-record.ts); and what it tells: its events (run-events.ts) and
// its stream of parts (chat-stream.ts). It imports calls/ (a turn's calls go
// through the call pipeline) and the layers below: never the chat that
// starts it (a chat hands it what it needs, LoopContext), nor the sources.
//
// The tool loop: model → tools → model, until the model stops calling tools,
// hands calls back to the caller, the tools end the run, or the hop cap.
//
// How a run settles:
// - The model's turn is committed as soon as it ends, before the caller hears
//   of it and before any handler starts. An interrupted turn is committed
//   with finishReason 'abort' and no calls: nothing of it runs or waits. A
//   model that fails mid-reply leaves what it had shown, committed the same
//   way with finishReason 'error'.
// - While tools run, the journal keeps the disk in step: a call is marked
//   started before its handler starts, and each result is kept as it ends, so
//   a tab closed mid-batch loses no result and reruns nothing (a started call
//   that never ended comes back `interrupted`). The hop's results are then
//   committed as one message.
// - No call dispatchable (raw or unknown), or returnToolRequests: resolve with
//   the calls pending.
// - Every call of a batch asked to terminate: resolve after committing the
//   results, without asking the model again.
// - Hop cap reached: reject with ToolHopsError, the calls left pending.
// - A `return`-policy failure, a hook that threw (ToolHookError) or a journal
//   write that failed: the calls already running finish; reject with it;
//   finished results are kept as answers, a call whose handler ran and left
//   no result stays marked started (interrupted, never run again by itself),
//   the rest of the turn stays pending.
// - Abort while tools run: the run settles at once (a handler that ignores
//   its signal goes on detached, its result unheard); unfinished calls are
//   answered "stopped", so the next send works; reject with the abort reason.
import { ToolHopsError } from '../errors/index.js';
import { modelWriter, type ChatModel, type GenerationOptions, type ModelRequest, type ModelResponse } from '../shared/model.js';
import type { ToolChoice } from '../shared/tool-protocol.js';
import { inCallOrder, unrunRecord } from '../calls/call-order.js';
import type { RunEvents } from './run-events.js';
import type { ToolEventName } from '../calls/tool-events.js';
import { toolPart, type StreamPart } from './chat-stream.js';
import { nextTask } from '../shared/next-task.js';
import { generateFitting, type FittingContext } from './fitting-request.js';
import { assistantTurn, cutShortTurn } from './model-turn.js';
import { uncheckedRawCalls, withRawCallsChecked } from './raw-calls.js';
import type { ToolHooks } from '../calls/hooks.js';
import type { PendingState } from '../calls/batch-journal.js';
import type { ContextWindow } from './context-window.js';
import { resolveStep, type PrepareStep } from './prepare-step.js';
import { batchJournal } from '../calls/batch-journal.js';
import { draftWriter } from './draft-writer.js';
import { Landing } from './landing.js';
import { abortReason, addUsage, emptyStats, withRunRecord, type RunRecord } from './run-record.js';
import { runBatch } from '../calls/run-batch.js';
import { callInputParts } from './call-input-parts.js';
import { shouldStop, type StopCondition } from './stop-conditions.js';
import type { ToolSet } from '../calls/tool-set.js';
import type { AssistantMessage, ChatMessage, ChatSettings, Reply, Step, ToolCall, ToolResultRecord } from '../shared/chat.js';
import type { ReplyStats } from '../shared/stats.js';

export interface LoopContext {
  readonly model: ChatModel;
  readonly settings: ChatSettings;
  readonly hooks: ToolHooks;
  readonly messages: readonly ChatMessage[];
  /** Append messages and set the pending turn's answers and started calls (none unless given), in one write. */
  commit(messages: ChatMessage[], state?: PendingState): Promise<void>;
  /** Keep the answer being written, as far as it was shown (the commit that ends it clears it). */
  saveDraft(text: string): Promise<void>;
  /** What the model sees of the chat. */
  readonly window: ContextWindow;
  emit<K extends keyof RunEvents>(type: K, event: RunEvents[K]): void;
  newCallId(): string;
}

export interface LoopOptions {
  signal: AbortSignal;
  /** The run's parts, in the order things happen (a stream reads them). */
  onPart?: (part: StreamPart) => void;
  returnToolRequests: boolean;
  /** The run's tools: the chat's, or the ones this send made active. */
  tools: ToolSet;
  /** Every tool of the chat: what prepareStep's activeTools picks from. */
  chatTools: ToolSet;
  /** For the first model call; later ones use 'auto' (unless prepareStep says otherwise). */
  toolChoice: ToolChoice;
  generation?: GenerationOptions;
  stopWhen: readonly StopCondition[];
  prepareStep?: PrepareStep;
  /** Model calls the run made before this call (it goes on across answers to its calls). */
  firstStep: number;
  /** Structured output: the reply is one JSON value fitting this schema (and never a call). */
  output?: ModelRequest['output'];
  /** Chat ids of the runs waiting on this one (a chat run as a tool), this chat's last. */
  chain: readonly string[];
}

// The loop's stop conditions, as small predicates.
const interrupted = (turn: AssistantMessage) => turn.finishReason === 'abort';
const done = (turn: AssistantMessage) => turn.toolCalls.length === 0;
// Calls the model must write again: unreadable, cut off, or with reserved keys.
const rewrite = (call: ToolCall) => call.errorCode === 'malformed' || call.errorCode === 'truncated' || call.errorCode === 'invalid-arguments';
// Such a call goes back to the model as an error, whatever tool it names; but
// a chat with no managed tool never asks the model again by itself.
const forCaller = (turn: AssistantMessage, tools: ToolSet, returnAll: boolean) =>
  returnAll || !tools.hasManaged || turn.toolCalls.some((c) => !rewrite(c) && !tools.managed(c.name));
const capReached = (stats: ReplyStats, settings: ChatSettings) => stats.hops >= settings.maxToolHops;

export async function runLoop(context: LoopContext, options: LoopOptions): Promise<Reply> {
  const run: RunRecord = { stats: emptyStats(), steps: [] };
  try {
    return await loop(context, options, run);
  } catch (error) {
    // The chat is not let go while a write of this run is still on its way.
    await run.landing?.done.catch(() => undefined);
    throw withRunRecord(error, run);
  }
}

async function loop(context: LoopContext, options: LoopOptions, run: RunRecord): Promise<Reply> {
  const { settings } = context;
  const { signal, onPart } = options;
  const { stats, steps } = run;
  for (;;) {
    // The last hop's results, if their write is still on its way: the request
    // goes out meanwhile, and everything this hop shows waits for them.
    const landing = run.landing?.landed === false ? run.landing : undefined;
    const show = (f: () => void) => (landing ? landing.after(f) : f());
    if (signal.aborted) {
      await landing?.done;
      throw abortReason(signal);
    }
    // Each earlier pass made one hop (stats.hops counts them once their results land).
    const hop = steps.length;
    const index = options.firstStep + steps.length;
    const defaults = { tools: options.tools, chatTools: options.chatTools, toolChoice: options.toolChoice, generation: options.generation, system: settings.system, foreignSystem: settings.foreignSystem, hop };
    // The app's prepareStep sees the chat as stored.
    if (options.prepareStep) await landing?.done;
    const call = resolveStep(defaults, await options.prepareStep?.({ steps: [...steps], hop }));
    // The window and the prompt depend on the model: wait for one (an agent's may still be loading).
    await context.model.ready?.(signal);
    // The model this request goes to writes the turn (an agent.load while it generates does not change that).
    const writer = modelWriter(context.model.info);
    const { tools } = call;
    show(() => context.emit('model-start', { step: index }));
    const started = performance.now();
    let shown = '';
    let response: ModelResponse;
    const draft = draftWriter((text) => context.saveDraft(text));
    const inputs = onPart && callInputParts(index, () => context.newCallId(), (part) => show(() => onPart(part)));
    // A write that fails stops the request it was overtaken by.
    const overtaken = new AbortController();
    landing?.done.catch((error: unknown) => overtaken.abort(error));
    try {
      const fitting: FittingContext = {
        model: context.model,
        window: context.window,
        grammar: settings.grammar,
        // The chat's copy takes the results once they land; until then the request adds them.
        get messages() {
          const stored = context.messages;
          return landing && stored.at(-1) !== landing.messages.at(-1) ? [...stored, ...landing.messages] : stored;
        },
        emit: (type, event) => show(() => context.emit(type, event)),
      };
      response = await generateFitting(
        fitting,
        call,
        options.output,
        {
          signal: landing ? AbortSignal.any([signal, overtaken.signal]) : signal,
          onText: (delta) =>
            show(() => {
              shown += delta;
              draft.update(shown);
              context.emit('text', { step: index, delta });
              onPart?.({ type: 'text', step: index, text: delta });
            }),
          onReasoning: (delta) => show(() => onPart?.({ type: 'reasoning', step: index, text: delta })),
          onCallInput: inputs?.onCallInput,
        },
      );
    } catch (error) {
      await draft.stop();
      await landing?.done;
      // The model failed mid-reply (the device was lost, the worker died):
      // keep what it had said, marked as cut short, then report the failure.
      if (shown) await context.commit([cutShortTurn(shown, error, writer)]).catch(() => undefined);
      throw error;
    }
    await landing?.done;
    // No draft write may land after the turn's commit (which clears the draft).
    await draft.stop();
    const modelMs = performance.now() - started;
    addUsage(stats, response, modelMs);
    let turn = assistantTurn(response, tools, modelMs, inputs?.callIds ?? context.newCallId, writer);
    const rawCalls = uncheckedRawCalls(turn, tools);
    if (rawCalls.length > 0) turn = await withRawCallsChecked(turn, tools, rawCalls);
    context.emit('model-end', { step: index, text: turn.text, toolCalls: turn.toolCalls, finishReason: turn.finishReason, promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens });
    const step: Step = {
      index,
      text: turn.text,
      reasoning: turn.reasoning,
      toolCalls: turn.toolCalls,
      toolResults: [],
      finishReason: turn.finishReason,
      usage: { promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens, ...(response.usage.cachedTokens !== undefined ? { cachedTokens: response.usage.cachedTokens } : {}) },
      modelMs,
      toolMs: 0,
      activeTools: tools.names,
    };
    steps.push(step);
    const reply: Reply = { text: turn.text, reasoning: turn.reasoning, toolCalls: turn.toolCalls, finishReason: turn.finishReason, stats, steps };
    const stepEnd = () => onPart?.({ type: 'step-end', step: index, finishReason: step.finishReason, usage: step.usage, modelMs: step.modelMs, toolMs: step.toolMs });

    const returned = interrupted(turn) || done(turn) || forCaller(turn, tools, options.returnToolRequests);
    // A stop condition that throws fails the run after the turn is kept, its calls pending.
    let stop: { now: boolean } | { error: unknown };
    try {
      stop = { now: !returned && (await shouldStop(options.stopWhen, steps)) };
    } catch (error) {
      stop = { error };
    }
    const ends = returned || !('now' in stop) || stop.now || capReached(stats, settings);
    // Calls that start at once (no hook or person to wait for) are marked
    // started with the turn: one write fewer per hop.
    const startNow = ends ? [] : startingAtOnce(turn.toolCalls, tools, context);
    await context.commit([turn], { started: startNow });
    for (const c of turn.toolCalls) onPart?.({ type: 'tool-call', step: index, call: c });
    if ('error' in stop) throw stop.error;
    if (ends) stepEnd();
    if (interrupted(turn)) throw abortReason(signal);
    if (returned || stop.now) return reply;
    if (capReached(stats, settings)) throw new ToolHopsError(stats.hops, reply);

    const toolsStarted = performance.now();
    const journal = batchJournal((messages, state) => context.commit(messages, state), startNow);
    const batch = await runBatch(turn.toolCalls, (c) => tools.managed(c.name), settings.maxConcurrentTools, {
      signal,
      maxResultChars: settings.maxResultChars,
      hooks: context.hooks,
      emit: (type, event) => {
        context.emit<ToolEventName>(type, event);
        const part = onPart && toolPart(type, event, index);
        if (part) onPart(part);
      },
      journal,
      chain: options.chain,
    });
    // What ends after this (a handler that ignored an abort) is not written.
    await journal.close();
    step.toolMs = performance.now() - toolsStarted;
    stats.toolMs += step.toolMs;
    const records = batch.records.filter((r): r is ToolResultRecord => r !== undefined);
    step.toolResults = records;
    stats.toolCalls += batch.ran;
    if (batch.aborted) {
      step.toolResults = inCallOrder(turn.toolCalls, records, (c) => unrunRecord(c, 'The run was stopped before this call finished.', 'stopped'));
      await context.commit([{ role: 'tool', results: step.toolResults, createdAt: Date.now() }]);
      stepEnd();
      throw abortReason(signal);
    }
    if (batch.failure || batch.awaiting.length) {
      // The answers so far are kept, and so are the marks of calls that ran
      // without leaving one: an unmarked pending call looks never run.
      await context.commit([], { answers: records, started: batch.interrupted, awaiting: batch.awaiting });
      stepEnd();
      if (batch.failure) throw batch.failure;
      // The run goes on once a person decides.
      const approvals = turn.toolCalls.filter((c) => batch.awaiting.includes(c.id)).map((c) => ({ ...c, awaitingApproval: true }));
      return { ...reply, toolCalls: [], approvals };
    }
    const results: ChatMessage[] = [{ role: 'tool', results: records, createdAt: Date.now() }];
    if (batch.terminate) {
      await context.commit(results);
      stats.hops++;
      stepEnd();
      return { ...reply, toolCalls: [], toolResults: records };
    }
    // The next request is made while the results are written (see the top of
    // the loop), and sent before the write starts: starting it costs this
    // thread its IndexedDB calls, which then overlap the model's work.
    const write = nextTask().then(() => context.commit(results));
    run.landing = new Landing(write, results, () => {
      stats.hops++;
      stepEnd();
      context.emit('hop', { hops: stats.hops });
    });
  }
}

/**
 * The first calls of a batch, up to the concurrency, whose handlers will
 * start without waiting on anyone: managed, readable, no hook to ask and no
 * approval needed. (Argument validation may still refuse one: it is then
 * answered at once, and no longer started.)
 */
function startingAtOnce(calls: readonly ToolCall[], tools: ToolSet, context: LoopContext): string[] {
  if (context.hooks.beforeToolCall) return [];
  const ids: string[] = [];
  for (const call of calls.slice(0, context.settings.maxConcurrentTools)) {
    const tool = call.error ? undefined : tools.managed(call.name);
    if (!tool || tool.needsApproval !== false) break;
    ids.push(call.id);
  }
  return ids;
}
