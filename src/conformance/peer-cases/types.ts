// A tool-call parser test case of a peer (vLLM, llama.cpp, SGLang), restated
// as data: the model text the peer's test feeds its parser and what the
// peer's test asserts comes out. Facts only, each with where it was read, so
// tabagent's reading of the same text is checked against an oracle that is
// not tabagent's own code.
import type { JsonObject } from '../../shared/json.js';
import type { ModelFamily } from '../../shared/tool-protocol.js';

export interface PeerSource {
  /** owner/name on GitHub. */
  repo: string;
  path: string;
  /** The commit the case was read at. */
  commit: string;
  /** The peer's test (function, parametrize id, or the assertion's subject). */
  test: string;
}

/** A call the peer's test expects. */
export interface PeerCall {
  name: string;
  /**
   * The arguments as the peer's test states them; `null` where the peer
   * returns arguments that are not a JSON object at all (a cut-off or bare
   * string it passes on as is); omitted where the peer's test checks only
   * that the call is there.
   */
  arguments?: JsonObject | null;
}

export interface PeerCase {
  /** `<peer>/<parser>/<test>`: unique across all peers. */
  id: string;
  /** The tabagent family that reads this format. */
  family: ModelFamily;
  source: PeerSource;
  /** The model's text, as the peer's test feeds it. */
  output: string;
  /**
   * 'stop': the peer parses the text as a finished reply. 'length': the peer
   * tests a reply cut short (a partial parse, or a stream that stops here).
   */
  finish: 'stop' | 'length';
  /** The prompt already opened a think block (llama.cpp's thinking_forced_open). */
  thinkOpened?: boolean;
  expected: {
    calls: PeerCall[];
    /**
     * The text the peer returns as content: null where it returns none;
     * omitted where the peer's test does not assert it.
     */
    content?: string | null;
    /** The reasoning the peer returns, where its test asserts it. */
    reasoning?: string;
  };
}
