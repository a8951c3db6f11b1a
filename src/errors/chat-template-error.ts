import { TabAgentError, codeGuard } from './base.js';

/**
 * The model's own chat template (a GGUF's `tokenizer.chat_template`, or the
 * app's `chatTemplate`) refused to render the conversation, even as tabagent
 * shapes it for strict templates (consecutive user turns joined, results
 * where a template without a tool role expects them). Nothing stored is
 * changed; the same conversation fails the same way, so it is no use trying
 * again without another template.
 */
export class ChatTemplateError extends TabAgentError {
  override readonly name = 'ChatTemplateError';
  readonly code = 'CHAT_TEMPLATE_FAILED';
  /** What the template said (its `raise_exception` text, or the Jinja engine's error). */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The model's chat template refused the conversation: ${reason}`, options);
    this.reason = reason;
  }
}

export const isChatTemplateError = codeGuard<ChatTemplateError>('CHAT_TEMPLATE_FAILED');
