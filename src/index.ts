// tabagent: an agent runtime in a browser tab.
import { launchBundledWorker } from './bundled-worker.js';
import { createAgentWith } from './agent/create-agent.js';
import { modelCacheWith } from './model/model-cache.js';

/** Start an agent: a worker with the model loaded, and the chats kept for it. */
export const createAgent = createAgentWith(launchBundledWorker);
export const { isModelCached, deleteCachedModel } = modelCacheWith(launchBundledWorker);
export type { Agent, AgentOptions, WebLLMModel } from './agent/create-agent.js';
export type { WebLLMAppConfig, WebLLMModelRecord } from './webllm/app-config.js';
export type { ModelOptions } from './model/model-session.js';
export type { GgufModel } from './model/gguf-model.js';
export type { ModelCacheOptions } from './model/model-cache.js';
export { listModels, type ListModelsOptions, type ModelListing } from './model/list-models.js';
export type { OpenChatOptions, GenerateRequest, GenerateObjectRequest, ModelWarning, Prompt, PromptMessage } from './agent/agent.js';
export type { Chat, GenerateObjectOptions, ObjectReply, SendOptions, ToolResultInput } from './chat/chat.js';
export type { ChatToolOptions } from './agent/chat-tool.js';
export type { ObjectSchema } from './tools/object-output.js';
export type { ObjectStream } from './chat/object-stream.js';
export type { ChatEvents } from './chat/chat-events.js';
export type { ChatStream, StreamPart } from './run/chat-stream.js';
export type { ApprovalDecision, HookContext, ToolCallInfo, ToolHooks, ToolOutcome } from './calls/hooks.js';
export type { ChatExport } from './store/chat-export.js';
export type { StorageInfo, StorageOptions } from './store/open-store.js';
export type { ChatSummary } from './store/records.js';
export type { ChatOptions } from './chat/chat-options.js';
export type { ChatMessage, Reply, Step, StepUsage, ToolCall, ToolCallStatus, ToolResultRecord } from './shared/chat.js';
export type { ReplyStats } from './shared/stats.js';
export { hopCountIs, hasToolCall, type StopCondition } from './run/stop-conditions.js';
export type { PrepareStep, StepSettings } from './run/prepare-step.js';
export { tool, rawTool, type ToolDefinition, type RawToolDefinition } from './tools/define-tool.js';
export type { ErrorPolicy, InputSchema, ManagedTool, RawTool, RetryPolicy, Tool, ToolContext, ToolEntry, ToolSource, ToolTraits } from './tools/types.js';
export { finishMcpAuth, mcpTools, type FinishMcpAuthOptions, type McpAuthProvider, type McpCallResult, type McpElicitation, type McpElicitationAnswer, type McpElicitationSchema, type McpOAuthOptions, type McpServerTools, type McpToolInfo, type McpToolsOptions } from './mcp/mcp-tools.js';
export { webMcpTools, type WebMcpTools, type WebMcpToolInfo, type WebMcpToolsOptions } from './mcp/webmcp-tools.js';
export { registerWebMcpTools, type RegisterWebMcpToolsOptions } from './agent/register-webmcp-tools.js';
export type { EngineName, GenerationOptions, LoadProgress, ModelInfo, FinishReason, TemplateMismatch } from './shared/model.js';
export type { ModelFamily, ToolChoice } from './shared/tool-protocol.js';
export type { JsonObject, JsonValue, JsonSchema } from './shared/json.js';
export * from './errors/index.js';
