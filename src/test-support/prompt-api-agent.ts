// An agent on Chrome's built-in model with the strict Prompt API stand-in in
// its place, for unit tests: the real engine code (model/prompt-api/) and
// the real chat, store and tool loop above it.
import { Agent } from '../agent/agent.js';
import { AgentModel } from '../model/agent-model.js';
import { CHROME_BUILTIN } from '../model/prompt-api/chrome-builtin.js';
import { promptApiStarter } from '../model/prompt-api/prompt-api-model.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { ChatStore } from '../store/records.js';
import { TabSync } from '../store/tab-sync.js';
import { promptApiStandIn, type StandInOptions, type StandInTurn } from './prompt-api-stand-in.js';

export async function promptApiAgent(options: StandInOptions, store: ChatStore = new MemoryChatStore()) {
  const standIn = promptApiStandIn(options);
  const slot = new AgentModel(promptApiStarter(() => standIn));
  await slot.load({ model: CHROME_BUILTIN }).loaded;
  const agent = new Agent(slot, {}, { kind: store.kind }, store, new TabSync(`test-${Math.random()}`, false));
  return { agent, standIn };
}

/** A stand-in model that replies with `replies` in turn (a reply given as a list streams in those chunks), recording each turn. */
export function scriptedReplies(replies: Array<string | string[]>) {
  const turns: StandInTurn[] = [];
  const model = (turn: StandInTurn) => {
    turns.push(turn);
    const reply = replies.shift();
    if (reply === undefined) throw new Error('The script has no reply left.');
    return (async function* () {
      for (const chunk of typeof reply === 'string' ? [reply] : reply) yield chunk;
    })();
  };
  return { model, turns };
}
