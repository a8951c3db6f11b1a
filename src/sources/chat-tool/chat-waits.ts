// Which chats wait on which, across every chat of the page: a run that calls
// a chat as a tool (chat.asTool) holds its own chat's lock until the call
// ends, and the call waits for the other chat's lock, then its run. An edge
// `from → to` stands for that while the call lasts. A call whose edge would
// close a cycle (the chat it calls waits, through other calls, on the chat
// calling it) would wait forever: it is refused before it waits. The chain of
// one run's calls is such a path too, so a chat calling itself, or a chat
// that called it, is one case of the same rule, as is the cycle two runs
// started at the same moment close between them.
//
// Within one tab: a run in another tab holds the chat's Web Lock without
// this tab knowing what it waits on.

/** Chat id → the chats its run waits on, with how many calls wait there. */
const waiting = new Map<string, Map<string, number>>();

/**
 * Note that the run of chat `from` waits on chat `to`. Returns the cycle it
 * would close instead (the chats from `to` round to `from`, each waiting on
 * the next), or the function that ends the wait.
 */
export function waitOn(from: string, to: string): { cycle: string[]; end?: undefined } | { end: () => void; cycle?: undefined } {
  const cycle = pathBetween(to, from);
  if (cycle) return { cycle };
  const edges = waiting.get(from) ?? new Map<string, number>();
  edges.set(to, (edges.get(to) ?? 0) + 1);
  waiting.set(from, edges);
  let ended = false;
  return {
    end: () => {
      if (ended) return;
      ended = true;
      const left = edges.get(to)! - 1;
      if (left > 0) edges.set(to, left);
      else edges.delete(to);
      if (edges.size === 0 && waiting.get(from) === edges) waiting.delete(from);
    },
  };
}

/** The chats from `start` to `goal` along the waits, both ends included; undefined when there is no such path. */
function pathBetween(start: string, goal: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (at: string): string[] | undefined => {
    if (at === goal) return [at];
    if (seen.has(at)) return undefined;
    seen.add(at);
    for (const next of waiting.get(at)?.keys() ?? []) {
      const rest = walk(next);
      if (rest) return [at, ...rest];
    }
    return undefined;
  };
  return walk(start);
}
