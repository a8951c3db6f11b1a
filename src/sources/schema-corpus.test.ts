// No schema a server sends may break a run. Each schema of the corpus
// (test-support/schema-corpus.ts: what zod, Pydantic and hand-written servers
// list, in the shapes of the JSON Schema Test Suite's cases) is listed by a
// real MCP server (the official SDK's) beside a plain tool, and a chat on the
// strict fake (grammar on, as by default: the real xgrammar compiles it) calls
// both: no raw error, no call left pending, the model reads each result, and
// what the checks leave out is a `tool-warning`.
import { afterAll, describe, expect, it } from 'vitest';
import { startWildMcpServer, type WildMcpServer } from '../../e2e/support/mcp-wild-server.mjs';
import { codecs } from '../protocol/codecs.js';
import { toGbnf } from '../protocol/gbnf.js';
import { buildConstraint, buildOutputConstraint } from '../protocol/grammar.js';
import { grammarSchema } from '../protocol/grammar-schema.js';
import { FORMAT_PATTERNS } from '../protocol/schema-meaning.js';
import { REAL_TOOL_CALLS, SCHEMA_CORPUS } from '../test-support/schema-corpus.js';
import { localChat } from '../test-support/local-chat.js';
import { toolCallText as call } from '../testing/calls.js';
import { mcpTools } from './mcp/mcp-tools.js';
import { MODEL_FAMILIES } from '../shared/tool-protocol.js';

const servers: WildMcpServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const READ_ONLY = { readOnlyHint: true };
const ECHO = { name: 'echo', description: 'Say it back', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, annotations: READ_ONLY };
/** A run that does not settle in time is a call left pending, not a slow test. */
const settles = <T>(p: Promise<T>, ms = 10_000) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`did not settle in ${ms} ms`)), ms))]);

describe('a server’s schema never breaks the run', () => {
  it.each(SCHEMA_CORPUS.map((c) => [c.name, c] as const))('%s', async (_, { schema, valid, skipped = [] }) => {
    const server = await startWildMcpServer({ tools: [{ name: 'odd', description: 'A tool with that schema', inputSchema: schema, annotations: READ_ONLY }, ECHO] });
    servers.push(server);
    const mcp = await mcpTools(server.url);
    const { chat, fake } = await localChat([call('odd', valid), call('echo', { text: 'still here' }), 'Done.', 'Again.'], { tools: [mcp] });
    const warnings: Array<{ toolName: string; message: string }> = [];
    chat.on('tool-warning', ({ toolName, message }) => warnings.push({ toolName, message }));
    const reply = await settles(chat.send('Use both tools'));
    expect(reply.text).toBe('Done.');
    expect(reply.steps.map((s) => s.toolResults.map((r) => `${r.name} ${r.status}`))).toEqual([['odd ok'], ['echo ok'], []]);
    // The server got the arguments as written; the model read its answer.
    expect(server.state.calls).toEqual([{ tool: 'odd', arguments: valid }, { tool: 'echo', arguments: { text: 'still here' } }]);
    expect(fake.requests[1]!.last).toBe(`<tool_response>\n${JSON.stringify(JSON.stringify(valid))}\n</tool_response>`);
    // What the checks left out, each said once, where it is.
    expect(warnings.map((w) => w.toolName)).toEqual(skipped.map(() => 'odd'));
    skipped.forEach((at, i) => expect(warnings[i]!.message.startsWith(`${at}: `) || warnings[i]!.message.startsWith(`${at}/`)).toBe(true));
    // Nothing pending: the chat takes the next message.
    expect(chat.pendingToolCalls).toEqual([]);
    expect((await chat.send('And now?')).text).toBe('Again.');
    await mcp.close();
  }, 30_000);

  // Writer, strict fake and engine agree: the call tabagent writes for each family passes the real xgrammar and reaches the server as meant.
  it.each(MODEL_FAMILIES.flatMap((family) => REAL_TOOL_CALLS.map((c) => [family, c.name, c] as const)))('%s, %s: the call reaches the server as written', async (family, _, { schema, valid }) => {
    const server = await startWildMcpServer({ tools: [{ name: 'odd', description: 'A real tool’s schema', inputSchema: schema, annotations: READ_ONLY }] });
    servers.push(server);
    const mcp = await mcpTools(server.url);
    // Qwen3 reasons first, as its grammar asks.
    const think = family === 'qwen3' ? '<think>\nThe tool.\n</think>\n\n' : '';
    const { chat } = await localChat([think + call('odd', valid, family), `${think}Done.`], { tools: [mcp] }, { family });
    const reply = await settles(chat.send('Use the tool'));
    expect(reply.steps.map((s) => s.toolResults.map((r) => `${r.name} ${r.status}`))).toEqual([['odd ok'], []]);
    expect(server.state.calls).toEqual([{ tool: 'odd', arguments: valid }]);
    await mcp.close();
  }, 30_000);

  it.each(SCHEMA_CORPUS.map((c) => [c.name, c] as const))('%s: wllama’s GBNF is built from it too', (_, { schema }) => {
    const tools = [{ name: 'odd', description: '', parameters: schema }];
    expect(toGbnf(buildConstraint(codecs.hermes.format, tools, 'required', 'none')!)).toContain('root');
    expect(toGbnf(buildOutputConstraint(schema, 'none'))).toContain('root');
  });

  it('a schema the engines can take whole reaches them as it is; lengths and formats they read narrower are left to the check', () => {
    const named = (name: string) => SCHEMA_CORPUS.find((c) => c.name === name)!.schema;
    expect(grammarSchema(named('recursion: a tree through $ref to the root and to $defs'))).toBe(named('recursion: a tree through $ref to the root and to $defs'));
    const draft07 = named('draft-07: definitions and $ref');
    expect(grammarSchema(draft07)).toEqual({ ...draft07, definitions: { tag: { type: 'string' } } });
    const formats = grammarSchema(named('formats')) as { properties: Record<string, object> };
    expect(formats.properties).toEqual({
      email: { type: 'string' },
      site: { type: 'string' },
      at: { type: 'string', pattern: `^${FORMAT_PATTERNS['date-time']}$` },
      id: { type: 'string', pattern: `^${FORMAT_PATTERNS.uuid}$` },
      re: { type: 'string' },
      odd: { type: 'string' },
    });
    const [zod] = SCHEMA_CORPUS;
    // Only its pattern is rewritten, to the same language in `u` mode.
    expect(grammarSchema(zod!.schema)).toEqual({ ...zod!.schema, properties: { ticket: { type: 'string', pattern: '^[a-z]+-[0-9]+$' } } });
  });

  it('the model is shown the server’s own schema, patterns as written', async () => {
    const [zod] = SCHEMA_CORPUS;
    const server = await startWildMcpServer({ tools: [{ name: 'odd', description: 'Odd', inputSchema: zod!.schema }] });
    servers.push(server);
    const mcp = await mcpTools(server.url);
    const { chat, fake } = await localChat(['ok'], { tools: [mcp] });
    await chat.send('hi');
    expect(fake.requests[0]!.prompt).toContain(`"pattern": ${JSON.stringify('^[a-z]+\\-[0-9]+$')}`);
    await mcp.close();
  });

  it('arguments that break a pattern it could check are refused before the call, and the model reads why', async () => {
    const [zod] = SCHEMA_CORPUS;
    const server = await startWildMcpServer({ tools: [{ name: 'odd', description: 'Odd', inputSchema: zod!.schema }] });
    servers.push(server);
    const mcp = await mcpTools(server.url);
    const { chat, fake } = await localChat([call('odd', { ticket: 'ABC 12' }), 'Sorry.'], { tools: [mcp], grammar: false });
    await settles(chat.send('go'));
    expect(server.state.calls).toEqual([]);
    expect(fake.requests[1]!.last).toContain('ticket: String does not match pattern');
    await mcp.close();
  });
});
