// One pass over the model's output that both streams the visible text and
// collects the calls, so what streams and what the final reply says agree.
// One file (over 300 lines) because it is one state machine: its states read
// each other's buffers, and split apart they would agree only by convention.
// Where a call may start comes from the CallFormat, as the grammar's does.
//
// Rules (FAULTS M2, M8):
// - A leading <think>…</think> block (the family's markers) is reasoning, not
//   text; so is everything up to </think> when the prompt already opened it.
//   Nothing in reasoning is a call.
// - 'reply-start' formats: a call list counts only at the start of the reply
//   (after reasoning and whitespace); an opener later on is text.
// - 'anywhere' formats: a call opens anywhere outside code fences. At the
//   start of a line, or when the opener is a control token, it is acted on
//   even when broken (the model gets an error result); in mid-line prose a
//   text opener counts only when well formed, else it is prose.
// - A reply cut by the token limit inside a call keeps the calls it finished
//   and reports the cut one as truncated, never guessed; in mid-line prose it
//   stays prose. An aborted reply shows nothing of an unfinished call.
// - A number JSON cannot hold (1e999) makes its call malformed: a handler
//   never gets Infinity.
// - Text inside a call never reaches the visible stream; text that might still
//   become a call is held back until it is decided.
// - Visible text is trimmed: leading whitespace dropped, trailing whitespace
//   held until more text follows.
// - A call being written is told as it grows (call-inputs.ts), provisional:
//   every input told is ended when its call text is decided, and tied to the
//   call read in its place.
import type { CallInputEvent, FinishReason } from '../shared/model.js';
import { CallInputs } from './call-inputs.js';
import { THINK_TAGS, type CallFormat, type ThinkMarkers } from './types.js';
import type { ParsedCall, ParsedTurn } from '../shared/tool-protocol.js';
import { MAX_JSON_DEPTH, nestsDeeper, type JsonValue } from '../shared/json.js';

const FENCE = '```';

type Mode = 'start' | 'think' | 'reply' | 'text' | 'call';

export class CallScanner {
  private raw = '';
  private pos = 0;
  private mode: Mode;
  private lineStart = true;
  private inFence = false;
  private callStart = 0;
  private callAnchored = false;
  /** Whether calls may still open (a reply-start format's chance passes with the first text). */
  private callsOpen: boolean;
  private heldSpace = '';
  private shown = false;
  private reasoning = '';
  /** Length of the reasoning already handed out by `takeReasoning`. */
  private reasoningTaken = 0;
  private finished = false;
  private text = '';
  private readonly calls: ParsedCall[] = [];
  private readonly inputs: CallInputs | null;

  /**
   * `format: null` reads no calls at all (tool choice `none`, no tools).
   * `thinkOpened`: the prompt ended inside a think block (the reply starts in reasoning).
   * `think`: the family's reasoning markers.
   * `tellInputs`: follow calls as they are written (takeCallInputs); off when
   * no one listens, as each step re-reads the call so far.
   */
  constructor(
    private readonly format: CallFormat | null,
    thinkOpened = false,
    private readonly think: ThinkMarkers = THINK_TAGS,
    tellInputs = true,
  ) {
    this.mode = thinkOpened ? 'think' : 'start';
    this.callsOpen = format !== null;
    this.inputs = format && tellInputs ? new CallInputs(format) : null;
  }

  /** Feed more output; returns the newly visible text (possibly empty). */
  push(delta: string): string {
    this.raw += delta;
    const before = this.text.length;
    this.scan(false);
    if (this.mode === 'call') this.inputs?.grow(this.raw.slice(this.callStart));
    return this.text.slice(before);
  }

  /** What the calls being written gained since the last call (see CallInputs). */
  takeCallInputs(): CallInputEvent[] {
    return this.inputs?.take() ?? [];
  }

  /**
   * The reasoning written since the last call, as it streams. Whitespace at
   * either end and a half-written `</think>` are held back, so the pieces add
   * up to exactly the final `reasoning`.
   */
  takeReasoning(): string {
    let current = this.reasoning;
    if (this.mode === 'think' && !this.finished) {
      const held = partialSuffix(this.raw, this.think.close, this.callStart);
      current = this.raw.slice(this.callStart, held < 0 ? this.raw.length : held).trim();
    }
    const delta = current.slice(this.reasoningTaken);
    this.reasoningTaken = current.length;
    return delta;
  }

  /** No more output; `reason` is how the generation ended. */
  finish(reason: FinishReason): ParsedTurn & { delta: string } {
    this.finished = true;
    const before = this.text.length;
    this.scan(true);
    if (this.mode === 'think') {
      this.reasoning = this.raw.slice(this.callStart).trim();
    } else if (this.mode === 'call') {
      const first = this.calls.length;
      if (reason !== 'abort') this.inputs?.grow(this.raw.slice(this.callStart));
      this.endOpenCall(reason);
      this.inputs?.close(this.calls.slice(first), first);
    } else if (this.pos < this.raw.length) {
      this.emit(this.raw.slice(this.pos));
    }
    this.pos = this.raw.length;
    return { text: this.text, reasoning: this.reasoning, calls: this.calls, delta: this.text.slice(before) };
  }

  private scan(final: boolean): void {
    for (;;) {
      const progressed =
        this.mode === 'start' ? this.scanStart(final)
        : this.mode === 'think' ? this.scanThink()
        : this.mode === 'reply' ? this.scanReplyStart(final)
        : this.mode === 'call' ? this.scanCall(final)
        : this.scanText(final);
      if (!progressed) return;
    }
  }

  private scanStart(final: boolean): boolean {
    const rest = this.raw.slice(this.pos).trimStart();
    const open = this.think.open;
    if (rest.startsWith(open)) {
      this.mode = 'think';
      this.callStart = this.raw.indexOf(open, this.pos) + open.length;
      return true;
    }
    if (!final && open.startsWith(rest)) return false;
    this.mode = 'reply';
    return true;
  }

  private scanThink(): boolean {
    const end = this.raw.indexOf(this.think.close, this.callStart);
    if (end < 0) return false;
    this.reasoning = this.raw.slice(this.callStart, end).trim();
    this.pos = end + this.think.close.length;
    this.mode = 'reply';
    this.lineStart = true;
    return true;
  }

  /** The start of the reply proper: where a reply-start format's calls open. */
  private scanReplyStart(final: boolean): boolean {
    if (this.format?.anchor !== 'reply-start') {
      this.mode = 'text';
      return true;
    }
    let p = this.pos;
    while (p < this.raw.length && /\s/.test(this.raw[p]!)) p++;
    if (p >= this.raw.length && !final) return false;
    const opens = this.opens(this.raw.slice(p));
    if (opens === 'maybe' && !final) return false;
    this.callsOpen = false;
    if (opens === 'yes') return this.openCall(p, true);
    this.mode = 'text';
    return true;
  }

  private scanText(final: boolean): boolean {
    const raw = this.raw;
    if (this.pos >= raw.length) return false;
    const anywhere = this.callsOpen && this.format?.anchor === 'anywhere';
    if (this.lineStart) {
      let p = this.pos;
      while (p < raw.length && (raw[p] === ' ' || raw[p] === '\t')) p++;
      const rest = raw.slice(p);
      if (!final && rest.length < FENCE.length && FENCE.startsWith(rest)) return false;
      if (rest.startsWith(FENCE)) {
        this.inFence = !this.inFence;
      } else if (!this.inFence && anywhere) {
        const opens = this.opens(rest);
        if (opens === 'maybe' && !final) return false;
        if (opens === 'yes') return this.openCall(p, true);
      }
    }
    const newline = raw.indexOf('\n', this.pos);
    const lineEnd = newline < 0 ? raw.length : newline + 1;
    const token = this.format?.anywhereOpener;
    if (token && !anywhere && !this.inFence) {
      const at = raw.indexOf(token, this.pos);
      // A control token: what follows is a call wherever it stands.
      if (at >= 0 && at < lineEnd) return this.openCall(at, true);
      // The token may still be arriving at the end of what came so far.
      const held = final || newline >= 0 ? -1 : partialSuffix(raw, token, this.pos);
      if (held >= 0) {
        this.emit(raw.slice(this.pos, held));
        this.pos = held;
        this.lineStart = false;
        return false;
      }
    }
    if (anywhere && !this.inFence) {
      // Variants of an 'anywhere' opener start with the same character.
      const cue = this.format!.opener[0]!;
      for (let c = raw.indexOf(cue, this.pos + (this.lineStart ? 1 : 0)); c >= 0 && c < lineEnd; c = raw.indexOf(cue, c + 1)) {
        const opens = this.opens(raw.slice(c));
        if (opens === 'yes') return this.openCall(c, false);
        if (opens === 'maybe' && !final) {
          this.emit(raw.slice(this.pos, c));
          this.pos = c;
          this.lineStart = false;
          return false;
        }
      }
    }
    this.emit(raw.slice(this.pos, lineEnd));
    this.pos = lineEnd;
    this.lineStart = newline >= 0;
    return newline >= 0;
  }

  /** Does `rest` open a call: the format's opener, or a variant it also reads? */
  private opens(rest: string): 'yes' | 'no' | 'maybe' {
    const format = this.format!;
    if (rest.startsWith(format.opener)) return 'yes';
    const variant = format.opensVariant?.(rest) ?? 'no';
    if (variant === 'yes') return 'yes';
    return variant === 'maybe' || format.opener.startsWith(rest) ? 'maybe' : 'no';
  }

  private openCall(at: number, anchored: boolean): boolean {
    this.emit(this.raw.slice(this.pos, at));
    this.mode = 'call';
    this.callStart = at;
    // Prose cannot write a control token: what follows one is a call, wherever it stands.
    const { controlOpener, opener } = this.format!;
    this.callAnchored = anchored || (controlOpener && this.raw.startsWith(opener, at));
    this.pos = at;
    return true;
  }

  private scanCall(final: boolean): boolean {
    const body = this.raw.slice(this.callStart);
    const length = this.format!.closes(body, final);
    if (length < 0) return false;
    const callText = body.slice(0, length);
    const read = this.read(callText);
    const first = this.calls.length;
    this.inputs?.grow(callText);
    if (!read.broken) this.calls.push(...read.calls);
    else if (this.callAnchored) this.calls.push(...read.calls, this.broken(read.unread, false));
    else this.emit(callText);
    this.inputs?.close(this.calls.slice(first), first);
    this.pos = this.callStart + length;
    this.mode = 'text';
    this.lineStart = false;
    return true;
  }

  private endOpenCall(reason: FinishReason): void {
    const callText = this.raw.slice(this.callStart);
    // Interrupted: nothing of the unfinished call shows or runs.
    if (reason === 'abort') return;
    const { calls, broken, unread } = this.read(callText);
    if (!broken) {
      this.calls.push(...calls);
      return;
    }
    // Mid-line, an unfinished or unreadable "call" was prose all along.
    if (!this.callAnchored) {
      this.emit(callText);
      return;
    }
    this.calls.push(...calls);
    // Cut off by the token limit: keep the calls it finished, never guess the
    // rest; a list that ended between calls lost nothing.
    if (!(calls.length > 0 && unread.trim() === '')) this.calls.push(this.broken(unread, reason === 'length'));
  }

  /** The format's reading, with what it could not read, and calls holding numbers JSON cannot (1e999) made malformed. */
  private read(callText: string): { calls: ParsedCall[]; broken: boolean; unread: string } {
    const { calls, broken, end } = this.format!.read(callText);
    const finite = calls.map((call): ParsedCall => {
      if (!call.arguments) return call;
      // Walked next, and by the page: a few KB of brackets would overflow the stack.
      if (nestsDeeper(call.arguments)) return { name: call.name, problem: { truncated: false, detail: `the arguments nest deeper than ${MAX_JSON_DEPTH} levels` } };
      return allFinite(call.arguments) ? call : { name: call.name, problem: { truncated: false, detail: 'an argument is a number too large for JSON' } };
    });
    return { calls: finite, broken, unread: end === undefined ? callText : callText.slice(end) };
  }

  private broken(unread: string, truncated: boolean): ParsedCall {
    const detail = truncated ? 'the reply hit the token limit inside the call' : `could not read ${JSON.stringify(unread.slice(0, 200))}`;
    // A name at the very end of a cut reply may itself be cut: never guessed from.
    const named = truncated ? unread.replace(/[\w.-]+$/, '') : unread;
    return { name: this.format!.guessName(named), problem: { truncated, detail } };
  }

  private emit(chunk: string): void {
    if (!chunk) return;
    const trimmed = chunk.trimEnd();
    if (!trimmed) {
      if (this.shown) this.heldSpace += chunk;
      return;
    }
    const body = this.shown ? this.heldSpace + trimmed : trimmed.trimStart();
    this.text += body;
    this.shown = true;
    this.heldSpace = chunk.slice(trimmed.length);
  }
}

/**
 * Where a proper prefix of `token` ends `text` (from `from` on), or -1: the
 * token may still be arriving. Runs per streamed piece, so it looks only
 * where the token's first character stands in the last few characters.
 */
function partialSuffix(text: string, token: string, from: number): number {
  const start = Math.max(from, text.length - token.length + 1);
  for (let at = text.indexOf(token[0]!, start); at >= 0; at = text.indexOf(token[0]!, at + 1)) {
    if (token.startsWith(text.slice(at))) return at;
  }
  return -1;
}

function allFinite(value: JsonValue): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return true;
  return (Array.isArray(value) ? value : Object.values(value)).every(allFinite);
}
