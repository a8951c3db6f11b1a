// Chats taking turns on one wllama model (wllama.spec.ts, shared-host.spec.ts):
// each hop should read only its own new messages, the rest of its prompt
// coming from the KV cache whatever other chat ran in between.
import { expect } from './fixtures.js';

/** One hop of a chat: tokens read anew, tokens the KV cache held, how it ended. */
export type Hop = { chat: string; read: number; cached: number; finish: string };

/** A system prompt of its own for `name`, `pad` sentences long (38: about 670 tokens), differing from its first words. */
export function personaPrompt(name: string, pad: number): string {
  return `You are ${name}. ${'You answer questions about the garden, the weather and the house, briefly and plainly. '.repeat(pad)}`;
}

/** Every hop after a chat's first found all of that chat's previous prompt in the KV cache, and read only what came after it. */
export function expectOwnPrefixReused(hops: Hop[]): void {
  const last = new Map<string, Hop>();
  for (const hop of hops) {
    expect(hop.finish).toBe('length');
    const before = last.get(hop.chat);
    if (before) expect(hop.cached, `${hop.chat}'s hop after ${JSON.stringify(before)}`).toBeGreaterThanOrEqual(before.read + before.cached);
    last.set(hop.chat, hop);
  }
}

/** The hops as a test annotation: read/cached tokens each. */
export function prefillNote(hops: Hop[]): { type: string; description: string } {
  return { type: 'prefill per hop (read/cached tokens)', description: hops.map((h) => `${h.chat} ${h.read}/${h.cached}`).join(', ') };
}
