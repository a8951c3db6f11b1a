// The least a hop can cost in tabagent's design, written by hand with none
// of tabagent's agent, chat, run, store or worker code (only its schema and
// its next-task primitive): the request to a worker where the same fake model writes
// the same turn, the turn with its call marked started committed (strict)
// before the handler runs, the next request sent, then the results committed
// in a task after it. Stored as tabagent stores a chat (a record and a
// message a write, both stores in one transaction), through IndexedDB's own
// API. Its overhead is what the design itself costs on this machine; the
// stored hop through tabagent is measured against it in the same run.
import { DB_VERSION, upgrade, type TabAgentDB } from '../../src/store/schema.js';
import { openDB, unwrap } from 'idb';
import type { EngineRequest } from '../../src/worker/engine.js';
// The task after this one, as tabagent's results write waits for it.
import { nextTask } from '../../src/shared/next-task.js';

interface TurnWorker {
  call<T>(request: Record<string, unknown>): Promise<T>;
}


/**
 * `sends` sends of `turns` (calls, then an answer), each turn one worker
 * round trip; with `store`, two strict commits a hop. Returns the time from
 * one request's post to the next's, per hop.
 */
export async function designHops(worker: TurnWorker, turns: string[], requests: EngineRequest[], store: boolean, name: string): Promise<number[]> {
  const db = store ? (await openDB<TabAgentDB>(name, DB_VERSION, { upgrade })) : undefined;
  const raw = db && unwrap(db);
  const hopTimes: number[] = [];
  try {
    const id = crypto.randomUUID();
    let seq = 0;
    const record = { id, title: 'Say hello', createdAt: Date.now(), updatedAt: Date.now(), messageCount: 0, version: 0, settings: { maxToolHops: turns.length, maxConcurrentTools: 1, toolChoice: 'auto' as const, maxResultChars: 8000 }, tools: [{ name: 'echo', kind: 'managed' as const }], answers: [], started: [] as string[], awaiting: [] };
    const commit = (messages: object[], started: string[]): Promise<void> => {
      if (!raw) return Promise.resolve();
      const tx = raw.transaction(['chats', 'messages'], 'readwrite', { durability: 'strict' });
      const store = tx.objectStore('messages');
      for (const message of messages) store.put({ chatId: id, seq: seq++, message });
      record.messageCount = seq;
      record.version++;
      record.updatedAt = Date.now();
      record.started = started;
      tx.objectStore('chats').put(record);
      tx.commit();
      return new Promise((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error);
      });
    };
    await worker.call({ kind: 'open', outputs: turns, requests });
    await commit([{ role: 'user', content: 'Say hello', createdAt: Date.now() }], []);
    let results = Promise.resolve();
    let last = 0;
    for (let k = 0; k < turns.length; k++) {
      const posted = performance.now();
      if (k > 0) hopTimes.push(posted - last);
      last = posted;
      const { text } = await worker.call<{ text: string }>({ kind: 'turn' });
      await results;
      const json = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/.exec(text)?.[1];
      const turn = { role: 'assistant', raw: text, text: json ? '' : text, toolCalls: [] as object[], finishReason: 'stop', createdAt: Date.now() };
      if (!json) {
        await commit([turn], []);
        break;
      }
      const call = JSON.parse(json) as { name: string; arguments: { text: string } };
      const callId = `call_${crypto.randomUUID().slice(0, 12)}`;
      turn.toolCalls.push({ id: callId, name: call.name, arguments: call.arguments });
      await commit([turn], [callId]);
      const result = { text: call.arguments.text };
      const message = { role: 'tool', results: [{ callId, name: call.name, content: JSON.stringify(result), isError: false, status: 'ok' }], createdAt: Date.now() };
      results = nextTask().then(() => commit([message], []));
    }
    return hopTimes;
  } finally {
    db?.close();
  }
}
