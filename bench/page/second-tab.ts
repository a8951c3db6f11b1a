// What a second tab's agent costs in memory on the real engine: a first agent
// loads the tiny GGUF from a URL in a shared worker; a second then joins it
// (`shared`) or starts a worker and a load of its own. The page only makes
// the agents: bench/run.mjs reads the memory of the browser's processes
// between the steps, as no page API sees a shared worker's.
import { createAgent, type Agent } from '../../src/index.js';

const GGUF = '/models/tiny-qwen3.gguf';
const held: Agent[] = [];

export const secondTabBench = {
  /** An agent on the tiny GGUF, ready; where its model runs. */
  async memoryAgent(shared: boolean): Promise<string> {
    const agent = await createAgent({ model: { gguf: new URL(GGUF, location.href).href, contextSize: 1024, threads: 1 }, storage: false, shared });
    held.push(agent);
    return (await agent.ready).host;
  },
  memoryClose(): void {
    for (const agent of held.splice(0)) agent.close();
  },
};
