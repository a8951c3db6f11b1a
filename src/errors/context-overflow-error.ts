import { TabAgentError, codeGuard } from './base.js';

/**
 * The request cannot fit the model's context window: with the context
 * strategy `'error'`, or when even the system prompt, the tools and the
 * current run (from the latest user message on) do not fit with room for the
 * reply. Nothing was written: shorten the message or the tools, or start a
 * new chat.
 */
export class ContextOverflowError extends TabAgentError {
  override readonly name = 'ContextOverflowError';
  readonly code = 'CONTEXT_OVERFLOW';
  /** Estimated tokens of the prompt that did not fit. */
  readonly promptTokens: number;
  /** Tokens kept free for the reply. */
  readonly reservedTokens: number;
  /** The model's context window. */
  readonly contextWindow: number;

  constructor(fields: { promptTokens: number; reservedTokens: number; contextWindow: number }) {
    super(`The request needs about ${fields.promptTokens} tokens plus ${fields.reservedTokens} for the reply, more than the model's context window of ${fields.contextWindow}.`);
    this.promptTokens = fields.promptTokens;
    this.reservedTokens = fields.reservedTokens;
    this.contextWindow = fields.contextWindow;
  }
}

export const isContextOverflowError = codeGuard<ContextOverflowError>('CONTEXT_OVERFLOW');
