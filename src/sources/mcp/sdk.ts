// The one door to the official MCP client (`@modelcontextprotocol/client`).
// The published package ships it prebuilt into this file
// (scripts/build-package.mjs), as it ships the engines: an app installs none
// of the SDK's dependencies (some are for Node only) and loads it only with
// MCP, through the on-demand modules that import this one.
export { Client, OAuthError, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport, UnauthorizedError, auth, specTypeSchemas } from '@modelcontextprotocol/client';
export type {
  CallToolResult,
  ClientContext,
  ContentBlock,
  ElicitRequest,
  ElicitResult,
  GetTaskResult,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  Progress,
  ProgressNotification,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
  Tool,
} from '@modelcontextprotocol/client';
