// An MCP server for the demo's chats when the address names one
// (`?mcp=https://…/mcp`): its tools join the demo's own, and a server that
// asks the person for input in the middle of a call gets a form in the
// page's dialog (MCP elicitation).
import { mcpTools, type McpElicitation, type McpElicitationAnswer, type McpServerTools } from '../src/index.js';
import type { ConfirmDialog } from './ui/dialog.js';
import { elicitationQuestion } from './ui/elicitation.js';

export function mcpAddress(search: string): string | undefined {
  return new URLSearchParams(search).get('mcp') ?? undefined;
}

export function connectMcp(url: string, dialog: ConfirmDialog): Promise<McpServerTools> {
  return mcpTools(url, { elicit: (request, { signal }) => ask(dialog, request, signal) });
}

async function ask(dialog: ConfirmDialog, request: McpElicitation, signal: AbortSignal): Promise<McpElicitationAnswer> {
  const { question, answer } = elicitationQuestion(request);
  // The server gave up asking (the call was stopped): the form goes away.
  const withdraw = () => dialog.dismiss();
  signal.addEventListener('abort', withdraw, { once: true });
  try {
    return answer(await dialog.ask(question));
  } finally {
    signal.removeEventListener('abort', withdraw);
  }
}
