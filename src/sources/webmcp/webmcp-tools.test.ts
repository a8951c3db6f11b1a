// Where there is no WebMCP (Node has no document, as a browser without
// WebMCP has no document.modelContext): taking the page's tools is a typed
// error, offering a chat's tools does nothing. The rest runs against the
// polyfill in Chromium (e2e/webmcp.spec.ts).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerWebMcpTools } from './register-webmcp-tools.js';
import { isDuplicateToolError, isInvalidOptionsError, isWebMcpUnavailableError } from '../../errors/index.js';
import { rawTool, tool } from '../../tools/define-tool.js';
import { webMcpTools } from './webmcp-tools.js';

const lookUp = tool({ name: 'look_up', description: 'Look a word up.', input: z.object({ word: z.string() }), readOnly: true, run: ({ word }) => `${word}: a word` });
const erase = tool({ name: 'erase', description: 'Erase a note.', input: z.object({ id: z.string() }), needsApproval: true, run: () => 'erased' });

describe('without WebMCP', () => {
  it('webMcpTools rejects with WebMcpUnavailableError naming what is missing', async () => {
    const error = await webMcpTools().catch((e: unknown) => e);
    expect(isWebMcpUnavailableError(error) && error.missing).toBe('document.modelContext');
  });

  it('registerWebMcpTools registers nothing and gives a function that does nothing', async () => {
    const unregister = await registerWebMcpTools([lookUp]);
    expect(typeof unregister).toBe('function');
    expect(unregister()).toBeUndefined();
  });
});

describe('registerWebMcpTools refuses, before it looks for WebMCP', () => {
  it('a raw tool (nothing to run), an empty description, and a tool that may need approval without `approve`', async () => {
    const failure = (tools: Parameters<typeof registerWebMcpTools>[0], options?: Parameters<typeof registerWebMcpTools>[1]) =>
      registerWebMcpTools(tools, options).then(
        () => 'registered',
        (e: unknown) => (isInvalidOptionsError(e) ? e.option : String(e)),
      );
    const raw = rawTool({ name: 'pick', description: 'Pick one.', parameters: { type: 'object' } });
    const silent = tool({ name: 'silent', description: '', input: z.object({}), run: () => 1 });
    expect(await failure([lookUp, raw as never])).toBe('tools[1]');
    expect(await failure([silent])).toBe('tools[0].description');
    expect(await failure([erase])).toBe('approve');
    expect(await failure([erase], { approve: () => true })).toBe('registered');
  });

  it('two tools of one name', async () => {
    const error = await registerWebMcpTools([lookUp, lookUp]).catch((e: unknown) => e);
    expect(isDuplicateToolError(error) && error.toolName).toBe('look_up');
  });
});

describe('webMcpTools options', () => {
  it('a timeout that is not positive, an unknown error policy', async () => {
    const option = (options: Parameters<typeof webMcpTools>[0]) => webMcpTools(options).catch((e: unknown) => (isInvalidOptionsError(e) ? e.option : String(e)));
    expect(await option({ timeoutMs: 0 })).toBe('timeoutMs');
    expect(await option({ onError: 'ignore' as never })).toBe('onError');
  });
});
