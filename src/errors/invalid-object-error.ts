import type { FinishReason } from '../shared/model.js';
import { TabAgentError, codeGuard } from './base.js';

/**
 * The model's reply is not JSON that fits the schema it was asked for: cut
 * off by the token limit, written without a grammar, or breaking a rule the
 * grammar cannot express (a refine, a number's range).
 */
export class InvalidObjectError extends TabAgentError {
  override readonly name = 'InvalidObjectError';
  readonly code = 'INVALID_OBJECT';
  /** The reply text, as the model wrote it. */
  readonly text: string;
  /** What is wrong, with where (e.g. `items.2.qty`; empty for the whole value). */
  readonly issues: Array<{ path: string; message: string }>;
  /** `'length'`: the reply was cut off by the token limit. */
  readonly finishReason: FinishReason;

  constructor(fields: { text: string; issues: Array<{ path: string; message: string }>; finishReason: FinishReason }) {
    const list = fields.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    const cut = fields.finishReason === 'length' ? ' (the reply was cut off by the token limit)' : fields.finishReason === 'abort' ? ' (the reply was aborted)' : '';
    super(`The model's reply is not JSON that fits the schema${cut}: ${list}`);
    this.text = fields.text;
    this.issues = fields.issues;
    this.finishReason = fields.finishReason;
  }
}

export const isInvalidObjectError = codeGuard<InvalidObjectError>('INVALID_OBJECT');
