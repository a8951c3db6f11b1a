import { TabAgentError, codeGuard } from './base.js';

/**
 * A fake model's scripted output breaks the request's grammar: a real model
 * under WebLLM's constrained decoding could never have written it, so the
 * test would pass for a reason that cannot happen.
 */
export class FakeGrammarError extends TabAgentError {
  override readonly name = 'FakeGrammarError';
  readonly code = 'FAKE_GRAMMAR';
  readonly turn: number;
  /** Index (in UTF-16 code units) of the first character the grammar refused; the text's length when it refused to end there. */
  readonly position: number;
  readonly output: string;

  constructor(turn: number, output: string, position: number) {
    const at = position >= output.length ? 'the grammar cannot end there' : `the grammar refuses ${JSON.stringify(output.slice(position, position + 12))} at character ${position}`;
    super(`The fake model's output at turn ${turn} is one a grammar-constrained model could not write: ${at}, after ${JSON.stringify(output.slice(Math.max(0, position - 40), position))}. Script output the grammar allows, or pass grammar: false to the fake model.`);
    this.turn = turn;
    this.position = position;
    this.output = output;
  }
}

export const isFakeGrammarError = codeGuard<FakeGrammarError>('FAKE_GRAMMAR');
