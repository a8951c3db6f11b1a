// Helpers that write tool calls the way each model family does, for scripts
// (written by protocol/write-calls.ts, which tabagent/ai-sdk uses too).
export { toolCallsText, toolCallText } from '../protocol/write-calls.js';
