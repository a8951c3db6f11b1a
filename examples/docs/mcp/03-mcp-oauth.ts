// docs/mcp.md, "OAuth": an MCP server behind a
// real authorization server (the MCP SDK's, e2e/support/mcp-oauth-server.mjs,
// which approves at once). The page is not sent away (it would end the
// example): the redirect is recorded, and the authorization server's answer
// read as the browser would follow it. e2e/mcp-oauth.spec.ts does the same
// with real redirects in Chromium.
import { createAgent, finishMcpAuth, isMcpConnectionError, mcpTools, type McpOAuthOptions } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { startMcpOAuthTestServer } from '../../../e2e/support/mcp-oauth-server.mjs';
import { check, followRedirect, useFakeScript } from '../../../src/test-support/readme-model.js';

const testServer = await startMcpOAuthTestServer();
const url = testServer.url;
const sentTo: URL[] = [];

// #region readme
// Part of examples/docs/mcp/03-mcp-oauth.ts, which has the imports and the server `url`.
const oauth: McpOAuthOptions = {
  redirectUrl: 'https://notes.example/', // a page of yours: the authorization server sends the person back there
  clientMetadata: { client_name: 'Notes', scope: 'notes:read' }, // registered on first use (dynamic client registration)
};

// On every load of that page:
async function connect(pageUrl: string) {
  if (new URL(pageUrl).searchParams.has('code')) {
    await finishMcpAuth(pageUrl); // the code becomes tokens, in IndexedDB; McpAuthError if its state or code is bad
  }
  try {
    return await mcpTools(url, { oauth }); // with the stored token; refreshed when the server allows
  } catch (error) {
    if (isMcpConnectionError(error) && error.unauthorized) return undefined; // the page is on its way to sign in
    throw error;
  }
}
// #endregion readme

oauth.onRedirect = (to) => void sentTo.push(new URL(to));
check((await connect('https://notes.example/')) === undefined, 'connected without a token');
check(sentTo.length === 1 && sentTo[0]!.href.startsWith(`${testServer.issuer}/authorize?`), sentTo.join());
// The browser at the authorization server: approved at once, sent back with a code.
const back = await followRedirect(sentTo[0]!);
check(back.startsWith('https://notes.example/?code='), back);
const server = (await connect(back))!;
useFakeScript([toolCallText('read_note', { name: 'shopping' }), 'Buy milk.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', storage: false });
const chat = await agent.newChat({ tools: [server] });
const reply = await chat.send('What is on my list?');
check(reply.text === 'Buy milk.', reply.text);
check(JSON.stringify(testServer.state.calls.map((c) => c.name)) === '["shopping"]', JSON.stringify(testServer.state.calls));
// A later load: the stored token, no new redirect.
await server.close();
const again = (await connect('https://notes.example/'))!;
check(again.tools.length === 1 && sentTo.length === 1 && testServer.state.authorizations === 1, `${sentTo.length} redirects`);
await again.close();
await testServer.close();
