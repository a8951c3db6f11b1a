// The tool-call protocol: how one model family is told about tools, how it
// calls them, and how it is given their results.
import type { EncodedToolResult, EngineMessage, ModelFamily, ParsedCall, Tag, ToolDeclaration } from '../shared/tool-protocol.js';

/** What a call text held: every call that was well formed, and whether anything else was there. */
export interface ReadCalls {
  calls: ParsedCall[];
  /** Part of the text is not a well-formed call (unreadable, or unfinished). */
  broken: boolean;
  /**
   * Where the well-formed calls end (the broken part starts), when the format
   * knows; a name is guessed from what follows, never from a call already read.
   */
  end?: number;
}

/** A call as far as it is written: its name once whole, and its arguments so far as JSON text (see json-prefix.ts). */
export interface CallInput {
  readonly name: string;
  /** The model's own JSON, or JSON written from the format's notation; '' while none shows. */
  readonly args: string;
}

/** How a family's model marks its reasoning: `<think>…</think>` for most, `[THINK]…[/THINK]` for Ministral 3. */
export interface ThinkMarkers {
  readonly open: string;
  readonly close: string;
}

export const THINK_TAGS: ThinkMarkers = { open: '<think>', close: '</think>' };

/**
 * How one format writes calls. The grammar and the scanner are both built
 * from this one definition, so they cannot disagree on where a call may start
 * or what it looks like.
 */
export interface CallFormat {
  /**
   * `'anywhere'`: the opener is a special token prose never contains, so a
   * call may follow text. `'reply-start'`: a call list is the whole reply
   * (after any reasoning); an opener later on is text.
   */
  readonly anchor: 'anywhere' | 'reply-start';
  /**
   * The opener is a control token (`[TOOL_CALLS]`, `<|tool_call>`): prose
   * cannot write it, so what follows it is a call even mid-line, and a broken
   * one is reported to the model rather than shown as text.
   */
  readonly controlOpener: boolean;
  /**
   * A control token that opens a call anywhere, even in a 'reply-start'
   * format (Llama's <|python_tag|>): a call after text. Read, never produced:
   * under `auto` the grammar lets it through as free text, so such a call's
   * arguments are held only by validation, as any call's are without a grammar.
   */
  readonly anywhereOpener?: string;
  /** The exact text every call (anywhere) or call list (reply-start) opens with. */
  readonly opener: string;
  /** For reply-start lists: what opens and closes the list and separates its calls. */
  readonly list: { open: string; separator: string; close: string };
  /** The grammar of one call to `tool`, first character to last (for 'anywhere', it begins with the opener). */
  tag(tool: ToolDeclaration): Tag;
  /** Length of the call text at the start of `text` (which starts with an opener), or -1 while it may go on. `final`: no more text will come. */
  closes(text: string, final: boolean): number;
  /** The calls in a call text (as `closes` measured it, or all that was left). */
  read(text: string): ReadCalls;
  /** Best guess of the tool name in call text that cannot be read. */
  guessName(text: string): string;
  /**
   * The calls in call text still being written (it starts with an opener),
   * as far as they show, for apps that show a call as it is written. A call
   * it cannot follow (or a format without it) arrives whole once read.
   */
  inputs?(text: string): CallInput[];
  /**
   * Does `rest` open a call in a variant the parser also reads (models drift
   * to them without a grammar; the grammar never produces them)? `'maybe'`
   * while more text is needed to decide.
   */
  opensVariant?(rest: string): 'yes' | 'no' | 'maybe';
}

/** How a reply may begin with reasoning: never, with its own `<think>` block, or inside one the prompt opened. */
export type Reasoning = 'none' | 'think' | 'opened';

/** One model family's whole protocol: the call format plus how tools and results are worded. */
export interface ToolCodec {
  readonly family: ModelFamily;
  readonly format: CallFormat;
  /** How the family's models mark their reasoning. */
  readonly think: ThinkMarkers;
  /** The system prompt with the tool declarations in the family's own words. */
  renderSystem(system: string | undefined, tools: readonly ToolDeclaration[]): string | undefined;
  /** Every result of a turn in one message, so each hop appends exactly one message. `toolRole`: the template has a tool role. */
  renderResults(results: readonly EncodedToolResult[], toolRole: boolean): EngineMessage;
}
