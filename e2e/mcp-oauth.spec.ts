// OAuth for mcpTools in a real browser: the page is sent to a real
// authorization server (the MCP SDK's, e2e/support/mcp-oauth-server.mjs, which
// approves at once), comes back with a code, finishes, and a chat uses the
// protected tool through the real worker; tokens are kept in IndexedDB.
import { expect, test } from './fixtures.js';
import type { Page } from '@playwright/test';

const MCP = 'http://127.0.0.1:4192';
const URL_ = `${MCP}/mcp`;
// The servers' record is shared: these run one after another.
test.describe.configure({ mode: 'serial' });
test.beforeEach(async () => {
  await fetch(`${MCP}/control?do=reset`, { method: 'POST' });
});
const serverState = async () => (await fetch(`${MCP}/state`)).json() as Promise<{ authorizations: number; liveTokens: number; calls: Array<{ tool: string; name: string }> }>;

/** mcpTools with OAuth, as an app calls it; without a token the page leaves for the authorization server. */
async function signIn(page: Page): Promise<void> {
  await page.evaluate((url) => {
    const { mcpTools } = window.tabagent;
    void mcpTools(url, { oauth: { redirectUrl: `${location.origin}/`, clientMetadata: { client_name: 'tabagent e2e' } } }).catch(() => undefined);
  }, URL_);
  await page.waitForURL(/[?&]code=/);
  await expect(page.locator('#status')).toHaveText('ready');
}

test('a first connect sends the page to the authorization server; back with a code, a chat uses the protected tool, and after a reload no new redirect', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
  await signIn(page);
  const asked = new URL(page.url());
  expect(asked.origin + asked.pathname).toBe('http://127.0.0.1:4173/');
  expect(asked.searchParams.get('state')).toMatch(/^[0-9a-f]{48}$/);

  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, finishMcpAuth, mcpTools, toolCallText } = window.tabagent;
    const { serverUrl } = await finishMcpAuth();
    history.replaceState(null, '', location.pathname); // the code is spent: off the address bar
    const server = await mcpTools(serverUrl, { oauth: { redirectUrl: `${location.origin}/` } });
    const agent = await createAgent({ model: fakeModel([toolCallText('read_note', { name: 'shopping' }), 'Buy milk.']) });
    const chat = await agent.newChat({ tools: [server] });
    const ends: string[] = [];
    chat.on('tool-end', (e) => ends.push(`${e.toolName} ${e.status} ${e.content}`));
    const reply = await chat.send('What is on my list?');
    await server.close();
    return { serverUrl, text: reply.text, ends, address: location.href };
  });
  expect(result).toEqual({ serverUrl: URL_, text: 'Buy milk.', ends: ['read_note ok "shopping: buy milk"'], address: 'http://127.0.0.1:4173/' });
  expect(scripts.some((p) => p.includes('mcp-oauth-finish'))).toBe(true);

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const names = await page.evaluate(async (url) => {
    const server = await window.tabagent.mcpTools(url, { oauth: { redirectUrl: `${location.origin}/` } });
    const names = server.tools.map((t) => t.name);
    await server.close();
    return names;
  }, URL_);
  expect(names).toEqual(['read_note']);
  expect(page.url()).toBe('http://127.0.0.1:4173/');
  const state = await serverState();
  expect(state.authorizations).toBe(1);
  expect(state.calls.map((c) => `${c.tool} ${c.name}`)).toEqual(['read_note shopping']);
});

test('an expired token leads to a new authorization, not a dead chat: the stored chat goes on after the redirect', async ({ page }) => {
  await signIn(page);
  const chatId = await page.evaluate(async (url) => {
    const { createAgent, fakeModel, finishMcpAuth, mcpTools, toolCallText } = window.tabagent;
    await finishMcpAuth();
    // The app asks before it leaves the page: here it notes where to go.
    const server = await mcpTools(url, { oauth: { redirectUrl: `${location.origin}/`, onRedirect: (to) => void sessionStorage.setItem('authorize-at', to.href) } });
    await fetch('http://127.0.0.1:4192/control?do=expire-tokens', { method: 'POST' });
    const agent = await createAgent({ model: fakeModel([toolCallText('read_note', { name: 'shopping' }), 'I need you to sign in again.']) });
    const chat = await agent.newChat({ tools: [server] });
    const reply = await chat.send('What is on my list?');
    if (reply.text !== 'I need you to sign in again.') throw new Error(reply.text);
    return chat.id;
  }, URL_);
  const again = await page.evaluate(() => sessionStorage.getItem('authorize-at'));
  expect(new URL(again!).pathname).toBe('/authorize');
  await page.goto(again!);
  await page.waitForURL(/[?&]code=/);
  await expect(page.locator('#status')).toHaveText('ready');

  const result = await page.evaluate(
    async ({ url, chatId }) => {
      const { createAgent, fakeModel, finishMcpAuth, mcpTools, toolCallText } = window.tabagent;
      await finishMcpAuth();
      const server = await mcpTools(url, { oauth: { redirectUrl: `${location.origin}/` } });
      const agent = await createAgent({ model: fakeModel([toolCallText('read_note', { name: 'shopping' }), 'Buy milk.']) });
      const chat = await agent.openChat(chatId, { tools: [server] });
      const reply = await chat.send('Try again.');
      return { text: reply.text, messages: chat.messages.filter((m) => m.role === 'user').map((m) => m.content) };
    },
    { url: URL_, chatId },
  );
  expect(result).toEqual({ text: 'Buy milk.', messages: ['What is on my list?', 'Try again.'] });
  const state = await serverState();
  expect(state.authorizations).toBe(2);
  expect(state.calls.map((c) => c.name)).toEqual(['shopping']);
});

test('a callback with a bad code or a state the page did not start is an McpAuthError', async ({ page }) => {
  await signIn(page);
  const failures = await page.evaluate(async () => {
    const { finishMcpAuth, isMcpAuthError } = window.tabagent;
    const why = (p: Promise<unknown>) => p.then(() => 'finished', (e: unknown) => (isMcpAuthError(e) ? `${e.failure} ${e.serverUrl ?? '-'}` : String(e)));
    const badState = new URL(location.href);
    badState.searchParams.set('state', 'f'.repeat(48));
    const badCode = new URL(location.href);
    badCode.searchParams.set('code', 'not-a-code');
    return [await why(finishMcpAuth(badState)), await why(finishMcpAuth(badCode)), await why(finishMcpAuth())];
  });
  // The real code comes too late: the bad one spent the authorization.
  expect(failures).toEqual(['state -', `exchange ${URL_}`, 'state -']);
  expect((await serverState()).liveTokens).toBe(0);
});
