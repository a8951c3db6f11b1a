// The stand-in refuses what the Prompt API refuses, with the spec's
// DOMException names (webmachinelearning/prompt-api at
// 2e27365ed877c3381126fcd0e10d5e0b8114c199: index.bs's "validate and
// canonicalize a prompt" and "prefill", README.md's destroy and overflow).
import { describe, expect, it } from 'vitest';
import { promptApiStandIn } from './prompt-api-stand-in.js';

const nameOf = (error: unknown) => (error as DOMException).name;
const standIn = (contextWindow = 4096) => promptApiStandIn({ model: ({ input }) => JSON.stringify({ answer: input.at(-1)!.content }), contextWindow });

describe('the Prompt API stand-in refuses', () => {
  it('a system message anywhere but first (TypeError), a prefix but on a last assistant message (SyntaxError)', async () => {
    const api = standIn();
    expect(nameOf(await api.create({ initialPrompts: [{ role: 'user', content: 'hi' }, { role: 'system', content: 'late' }] }).catch((e) => e))).toBe('TypeError');
    const session = await api.create({ initialPrompts: [{ role: 'system', content: 'first' }] });
    expect(nameOf(await session.prompt([{ role: 'system', content: 'again' }]).catch((e) => e))).toBe('TypeError');
    expect(nameOf(await session.prompt([{ role: 'user', content: 'x', prefix: true }]).catch((e) => e))).toBe('SyntaxError');
    expect(await session.prompt('fine')).toBe('{"answer":"fine"}');
  });

  it('options the web API does not take (TypeError), omitResponseConstraintInput alone (TypeError)', async () => {
    const api = standIn();
    expect(nameOf(await api.create({ temperature: 0.2 } as object).catch((e) => e))).toBe('TypeError');
    const session = await api.create();
    expect(nameOf(await Promise.resolve().then(() => session.prompt('x', { maxTokens: 5 } as object)).catch((e) => e))).toBe('TypeError');
    expect(nameOf(await Promise.resolve().then(() => session.prompt('x', { omitResponseConstraintInput: true })).catch((e) => e))).toBe('TypeError');
  });

  it('an output that breaks the responseConstraint (UnknownError), use after destroy() (AbortError)', async () => {
    const session = await standIn().create();
    const number = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    expect(nameOf(await session.prompt('x', { responseConstraint: number }).catch((e) => e))).toBe('UnknownError');
    session.destroy();
    expect(nameOf(await session.prompt('x').catch((e) => e))).toBe('AbortError');
  });

  it('a prompt past the window (QuotaExceededError with requested and quota), and leaves the session as it was', async () => {
    const session = await standIn(50).create();
    const error = await session.prompt('word '.repeat(100)).catch((e) => e);
    expect(error).toMatchObject({ name: 'QuotaExceededError', quota: 50 });
    expect(error.requested).toBeGreaterThan(50);
    expect(session.contextUsage).toBe(0);
  });
});
