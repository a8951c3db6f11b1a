import type { Reply } from '../shared/chat.js';
import { TabAgentError, codeGuard } from './base.js';

/**
 * The model kept calling tools past `maxToolHops`. The last turn's calls are
 * left pending (see `lastReply.toolCalls`): answer them to go on, or cancel them.
 */
export class ToolHopsError extends TabAgentError {
  override readonly name = 'ToolHopsError';
  readonly code = 'TOOL_HOPS_EXCEEDED';
  readonly hops: number;
  readonly lastReply: Reply;

  constructor(hops: number, lastReply: Reply) {
    super(`The model was still calling tools after ${hops} tool hops (maxToolHops); stopped before running more.`);
    this.hops = hops;
    this.lastReply = lastReply;
  }
}

export const isToolHopsError = codeGuard<ToolHopsError>('TOOL_HOPS_EXCEEDED');
