// Every error tabagent throws, from one module. Each has a stable `name` and
// `code`; use the `isX` guards rather than `instanceof` across realms.
import { ChatClosedError } from './chat-closed-error.js';
import { ChatConflictError } from './chat-conflict-error.js';
import { ChatTemplateError } from './chat-template-error.js';
import { ContextOverflowError } from './context-overflow-error.js';
import { ModelNotLoadedError } from './model-not-loaded-error.js';
import { DuplicateToolError } from './duplicate-tool-error.js';
import { FakeScriptError } from './fake-script-error.js';
import { FakeGrammarError } from './fake-grammar-error.js';
import { InvalidOptionsError } from './invalid-options-error.js';
import { InvalidToolArgumentsError } from './invalid-tool-arguments-error.js';
import { ModelError } from './model-error.js';
import { ModelLoadError } from './model-load-error.js';
import { PendingToolCallsError } from './pending-tool-calls-error.js';
import { ShaderF16UnsupportedError } from './shader-f16-unsupported-error.js';
import { ToolExecutionError } from './tool-execution-error.js';
import { ToolHookError } from './tool-hook-error.js';
import { ToolHopsError } from './tool-hops-error.js';
import { ToolResultError } from './tool-result-error.js';
import { UnknownToolCallError } from './unknown-tool-call-error.js';
import { UnknownToolError } from './unknown-tool-error.js';
import { WebGPUUnavailableError } from './webgpu-unavailable-error.js';
import { EngineUnavailableError } from './engine-unavailable-error.js';
import { SharedModelConflictError } from './shared-model-conflict-error.js';
import { WorkerCrashedError } from './worker-crashed-error.js';
import { WorkerStartError } from './worker-start-error.js';
import { ChatNotFoundError } from './chat-not-found-error.js';
import { DatabaseBlockedError } from './database-blocked-error.js';
import { InvalidChatExportError } from './invalid-chat-export-error.js';
import { InvalidObjectError } from './invalid-object-error.js';
import { MissingToolsError } from './missing-tools-error.js';
import { MessageNotFoundError } from './message-not-found-error.js';
import { StorageError } from './storage-error.js';
import { StorageQuotaError } from './storage-quota-error.js';
import { ToolTimeoutError } from './tool-timeout-error.js';
import { DeviceLostError } from './device-lost-error.js';
import { AgentClosedError } from './agent-closed-error.js';
import { McpAuthError } from './mcp-auth-error.js';
import { McpConnectionError } from './mcp-connection-error.js';
import { McpToolError } from './mcp-tool-error.js';
import { ChatToolError } from './chat-tool-error.js';
import { WebMcpToolError } from './webmcp-tool-error.js';
import { WebMcpUnavailableError } from './webmcp-unavailable-error.js';
import type { TabAgentError } from './base.js';

export { TabAgentError, isTabAgentError } from './base.js';
export { DeviceLostError, isDeviceLostError } from './device-lost-error.js';
export { AgentClosedError, isAgentClosedError } from './agent-closed-error.js';
export { ChatNotFoundError, isChatNotFoundError } from './chat-not-found-error.js';
export { DatabaseBlockedError, isDatabaseBlockedError } from './database-blocked-error.js';
export { InvalidChatExportError, isInvalidChatExportError } from './invalid-chat-export-error.js';
export { InvalidObjectError, isInvalidObjectError } from './invalid-object-error.js';
export { MissingToolsError, isMissingToolsError } from './missing-tools-error.js';
export { MessageNotFoundError, isMessageNotFoundError } from './message-not-found-error.js';
export { StorageError, isStorageError } from './storage-error.js';
export { StorageQuotaError, isStorageQuotaError } from './storage-quota-error.js';
export { ChatClosedError, isChatClosedError } from './chat-closed-error.js';
export { ChatConflictError, isChatConflictError } from './chat-conflict-error.js';
export { ChatTemplateError, isChatTemplateError } from './chat-template-error.js';
export { ContextOverflowError, isContextOverflowError } from './context-overflow-error.js';
export { ModelNotLoadedError, isModelNotLoadedError } from './model-not-loaded-error.js';
export { DuplicateToolError, isDuplicateToolError } from './duplicate-tool-error.js';
export { FakeScriptError, isFakeScriptError } from './fake-script-error.js';
export { FakeGrammarError, isFakeGrammarError } from './fake-grammar-error.js';
export { InvalidOptionsError, isInvalidOptionsError } from './invalid-options-error.js';
export { McpAuthError, isMcpAuthError, type McpAuthFailure } from './mcp-auth-error.js';
export { McpConnectionError, isMcpConnectionError } from './mcp-connection-error.js';
export { McpToolError, isMcpToolError, type McpFailure } from './mcp-tool-error.js';
export { ChatToolError, isChatToolError, type ChatToolFailure } from './chat-tool-error.js';
export { InvalidToolArgumentsError, isInvalidToolArgumentsError, type ArgumentIssue } from './invalid-tool-arguments-error.js';
export { ModelError, isModelError } from './model-error.js';
export { ModelLoadError, isModelLoadError } from './model-load-error.js';
export { PendingToolCallsError, isPendingToolCallsError } from './pending-tool-calls-error.js';
export { ShaderF16UnsupportedError, isShaderF16UnsupportedError } from './shader-f16-unsupported-error.js';
export { ToolExecutionError, isToolExecutionError } from './tool-execution-error.js';
export { ToolHookError, isToolHookError, type HookName } from './tool-hook-error.js';
export { ToolHopsError, isToolHopsError } from './tool-hops-error.js';
export { ToolResultError, isToolResultError } from './tool-result-error.js';
export { ToolTimeoutError, isToolTimeoutError } from './tool-timeout-error.js';
export { UnknownToolCallError, isUnknownToolCallError } from './unknown-tool-call-error.js';
export { UnknownToolError, isUnknownToolError } from './unknown-tool-error.js';
export { WebGPUUnavailableError, isWebGPUUnavailableError } from './webgpu-unavailable-error.js';
export { EngineUnavailableError, isEngineUnavailableError } from './engine-unavailable-error.js';
export { WebMcpToolError, isWebMcpToolError, type WebMcpFailure } from './webmcp-tool-error.js';
export { WebMcpUnavailableError, isWebMcpUnavailableError } from './webmcp-unavailable-error.js';
export { SharedModelConflictError, isSharedModelConflictError } from './shared-model-conflict-error.js';
export { WorkerCrashedError, isWorkerCrashedError } from './worker-crashed-error.js';
export { WorkerStartError, isWorkerStartError } from './worker-start-error.js';

/** Every error class by its `name`, so an error that crossed the worker boundary comes back as its own class. */
export const errorClasses: Record<string, abstract new (...args: never[]) => TabAgentError> = {
  AgentClosedError,
  DeviceLostError,
  ChatNotFoundError,
  DatabaseBlockedError,
  InvalidChatExportError,
  InvalidObjectError,
  MissingToolsError,
  MessageNotFoundError,
  StorageError,
  StorageQuotaError,
  ChatClosedError,
  ChatConflictError,
  ChatTemplateError,
  ChatToolError,
  ContextOverflowError,
  ModelNotLoadedError,
  DuplicateToolError,
  EngineUnavailableError,
  FakeScriptError,
  FakeGrammarError,
  InvalidOptionsError,
  InvalidToolArgumentsError,
  McpAuthError,
  McpConnectionError,
  McpToolError,
  ModelError,
  ModelLoadError,
  PendingToolCallsError,
  ShaderF16UnsupportedError,
  SharedModelConflictError,
  ToolExecutionError,
  ToolHookError,
  ToolHopsError,
  ToolResultError,
  ToolTimeoutError,
  UnknownToolCallError,
  UnknownToolError,
  WebGPUUnavailableError,
  WebMcpToolError,
  WebMcpUnavailableError,
  WorkerCrashedError,
  WorkerStartError,
};

/** True for the AbortError a run rejects with when its signal aborts (a DOMException, or any error named so). */
export function isAbortError(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError';
}
