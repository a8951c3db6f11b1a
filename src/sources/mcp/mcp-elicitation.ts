// A server's question to the person in the middle of a call (MCP's
// elicitation/create), answered by the app's `elicit` callback: a form the
// server describes with a flat JSON Schema, or a URL the person visits. The
// defaults the schema gives fill what the answer leaves out (SEP-1034), and
// an accepted form must fit the schema before it goes back. Loaded with the
// client (mcp-server.ts), which declares the capability only when the app
// gives the callback.
import { ProtocolError, ProtocolErrorCode, type ClientContext, type ElicitRequest, type ElicitResult } from './sdk.js';
import { messageOf } from '../../errors/message-of.js';
import { untilAborted } from '../../shared/until-aborted.js';
import { jsonSchemaInput } from '../../tools/json-schema-input.js';
import type { McpElicitation, McpElicitationAnswer, McpElicitationSchema, McpToolsOptions } from './mcp-types.js';

type Content = NonNullable<ElicitResult['content']>;

export function elicitationHandler(serverUrl: string, elicit: NonNullable<McpToolsOptions['elicit']>) {
  return async (request: ElicitRequest, ctx: ClientContext): Promise<ElicitResult> => {
    const { params } = request;
    const signal = ctx.mcpReq.signal;
    const asked: McpElicitation =
      params.mode === 'url'
        ? { mode: 'url', serverUrl, message: params.message, url: params.url, elicitationId: params.elicitationId }
        : { mode: 'form', serverUrl, message: params.message, requestedSchema: params.requestedSchema as McpElicitationSchema };
    let answer: McpElicitationAnswer;
    try {
      answer = await untilAborted(Promise.resolve().then(() => elicit(asked, { signal })), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ProtocolError(ProtocolErrorCode.InternalError, `the app could not ask the person: ${messageOf(error)}`);
    }
    const action = (answer as { action?: unknown } | undefined)?.action;
    if (action === 'decline' || action === 'cancel') return { action };
    if (action !== 'accept') throw new ProtocolError(ProtocolErrorCode.InternalError, `the app answered neither accept, decline nor cancel (${JSON.stringify(action)})`);
    if (asked.mode === 'url') return { action };
    const content = withDefaults(asked.requestedSchema, (answer as { content?: unknown }).content ?? {});
    const checked = await jsonSchemaInput(asked.requestedSchema as unknown as Record<string, unknown>).input['~standard'].validate(content);
    if (checked.issues) {
      const why = checked.issues.map((i) => i.message).join('; ');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `the answer does not fit the requested schema: ${why}`);
    }
    return { action, content: content as Content };
  };
}

/** The answer, with each field it leaves out that the schema gives a default for set to that default. */
function withDefaults(schema: { properties?: Record<string, unknown> }, content: unknown): unknown {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return content;
  const filled: Record<string, unknown> = { ...content };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (filled[key] === undefined && typeof property === 'object' && property !== null && 'default' in property) filled[key] = (property as { default: unknown }).default;
  }
  return filled;
}
