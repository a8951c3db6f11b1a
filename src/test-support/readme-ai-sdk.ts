// `tabagent/ai-sdk` as README examples see it when src/readme.test.ts runs
// them (vitest.config.ts aliases the bare specifier here): the real entry,
// but createTabAgent runs the example's fake model in this thread, as the
// shim for `tabagent` (readme-tabagent.ts) does for createAgent.
import { createTabAgentWith } from '../ai-sdk/provider.js';
import { inThreadStarter } from './local-chat.js';
import { fakeFor, inThread } from './readme-tabagent.js';

export * from '../ai-sdk/index.js';

export const createTabAgent = createTabAgentWith((options, signal) => {
  const fake = fakeFor(options.model);
  return inThreadStarter(() => inThread(fake, options))(options, signal);
});
