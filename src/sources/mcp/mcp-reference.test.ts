// mcpTools against the MCP reference server (@modelcontextprotocol/server-everything,
// run as it ships, in a child process): what a server tabagent did not write does.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../e2e/support/reference-mcp-server.mjs';
import { toolCallText as call } from '../../testing/calls.js';
import { localChat } from '../../test-support/local-chat.js';
import { mcpTools } from './mcp-tools.js';
import type { McpElicitation } from './mcp-types.js';
import { openedSources } from '../../test-support/opened-sources.js';
import { toolResults as results } from '../../test-support/tool-results.js';

let reference: ReferenceServer;
const { open, closeAll } = openedSources(mcpTools);

beforeAll(async () => {
  reference = await startReferenceServer();
}, 20_000);
afterEach(async () => {
  await closeAll();
});
afterAll(() => reference.close());

describe('the reference server', () => {
  it('restarted (it answers the old session HTTP 400): refresh() and calls get a new session', async () => {
    const mcp = await open(reference.url);
    expect(mcp.server.name).toBe('mcp-servers/everything');
    await reference.restart();
    await mcp.refresh();
    expect(mcp.tools.map((t) => t.name)).toContain('get-sum');
    await reference.restart();
    const { chat, fake } = await localChat([call('get-sum', { a: 1, b: 2 }), 'It is 3.'], { tools: [mcp] });
    expect((await chat.send('1 + 2?')).text).toBe('It is 3.');
    expect(results(fake.requests[1]!.last)).toEqual(['"The sum of 1 and 2 is 3."']);
  }, 60_000); // two restarts of a Node process on a shared machine
});

describe('elicitation (the server asks the person during a call)', { timeout: 20_000 }, () => {
  it('without `elicit` the server is not told tabagent can ask: it offers no tool that would', async () => {
    const mcp = await open(reference.url);
    expect(mcp.tools.map((t) => t.name)).not.toContain('trigger-elicitation-request');
  });

  it('a form: the app’s callback answers, the schema’s defaults fill what it leaves out, and the tool reads the answer', async () => {
    const asked: McpElicitation[] = [];
    const mcp = await open(reference.url, {
      elicit: (request) => {
        asked.push(request);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      },
    });
    const { chat, fake } = await localChat([call('trigger-elicitation-request'), 'Thanks.'], { tools: [mcp] });
    await chat.send('ask me');
    expect(asked).toHaveLength(1);
    const [form] = asked;
    expect(form).toMatchObject({ mode: 'form', serverUrl: reference.url });
    expect(form!.mode === 'form' && form!.requestedSchema.required).toEqual(['name']);
    const read = JSON.parse(results(fake.requests[1]!.last)[0]!) as string[];
    expect(read.join('\n')).toContain('- Name: Ada Lovelace');
    // Left out, filled from the schema's default.
    expect(read.join('\n')).toContain('- Favorite Integer: 42');
  });

  it('an answer that does not fit the schema is not sent: the server hears why, and the model reads the failure', async () => {
    const mcp = await open(reference.url, { elicit: () => ({ action: 'accept', content: { name: 42 as unknown as string } }) });
    const { chat, fake } = await localChat([call('trigger-elicitation-request'), 'Sorry.'], { tools: [mcp] });
    await chat.send('ask me');
    const read = results(fake.requests[1]!.last)[0]!;
    expect(read).toContain('the answer does not fit the requested schema');
    expect(read).not.toContain('Ada');
  });

  it('a URL: the callback is given the server’s URL, and its answer goes back', async () => {
    const asked: McpElicitation[] = [];
    const mcp = await open(reference.url, { elicit: (request) => (asked.push(request), { action: 'decline' }) });
    const { chat, fake } = await localChat([call('trigger-url-elicitation', { url: 'https://pay.example/checkout' }), 'Ok.'], { tools: [mcp] });
    await chat.send('pay');
    expect(asked).toEqual([{ mode: 'url', serverUrl: reference.url, message: 'Please open the link to complete this action.', url: 'https://pay.example/checkout', elicitationId: expect.any(String) }]);
    expect(results(fake.requests[1]!.last)[0]).toContain('declined');
  });
});

describe('tasks on the reference server', () => {
  it('its research tool (taskSupport required) runs as a task; its question mid-task (input_required) reaches elicit, and the answer shapes the result', async () => {
    const asked: McpElicitation[] = [];
    const mcp = await open(reference.url, {
      elicit: (request) => {
        asked.push(request);
        return { action: 'accept', content: { interpretation: 'snake' } };
      },
    });
    const research = mcp.tools.find((t) => t.name === 'simulate-research-query');
    expect(research).toBeDefined();
    const { chat, fake } = await localChat([call('simulate-research-query', { topic: 'python', ambiguous: true }), 'Done.'], { tools: [mcp] });
    const statuses: unknown[] = [];
    chat.on('tool-progress', (e) => statuses.push(e.details));
    await chat.send('research python');
    expect(asked).toEqual([expect.objectContaining({ mode: 'form', serverUrl: reference.url })]);
    // Polled: the status the wait stops at (input_required) is always seen.
    expect(statuses).toContainEqual({ message: 'Found multiple interpretations for "python". Requesting clarification...' });
    const report = JSON.parse(results(fake.requests[1]!.last)[0]!) as string;
    expect(report).toContain('# Research Report: python (snake)');
  }, 60_000); // four stages of a second each, on a shared machine
});
