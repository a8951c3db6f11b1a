// A request on the generation port, as little of it as the worker lacks. The
// hops of a chat send the same tools and the same conversation again, one
// turn and its results longer each time; an app's tools may run to dozens of
// schemas (an MCP server's) and a chat to hundreds of messages. So a tool
// list crosses once and is named after (a list of the same declaration
// objects, as a chat's is hop after hop), and a message list goes as the list
// it continues (the longest run of the same message objects from the start
// of one the worker holds) and what it adds. Each end keeps the last lists
// in the same order (Kept), so both know what a number names without a
// reply. The worker then gets the same objects hop after hop and keeps what
// it makes of them: escaped, written into the prompt, the call grammar.
import type { ModelMessage, ModelRequest } from '../shared/model.js';
import type { ToolDeclaration } from '../shared/tool-protocol.js';
import { KEPT_LISTS, type WireRequest } from './worker-protocol.js';

/** The last KEPT_LISTS lists one end holds, oldest first: both ends make the same changes in the same order. */
class Kept<T> {
  readonly entries: Array<{ number: number; value: T }> = [];

  get(number: number): T | undefined {
    return this.entries.find((entry) => entry.number === number)?.value;
  }

  /** Keep `value` as `number`, in the place of `replacing` (a list it continues), dropping the oldest past KEPT_LISTS. */
  add(number: number, value: T, replacing?: number): void {
    const replaced = this.entries.findIndex((entry) => entry.number === replacing);
    if (replaced >= 0) this.entries.splice(replaced, 1);
    this.entries.push({ number, value });
    if (this.entries.length > KEPT_LISTS) this.entries.shift();
  }
}

/** How many items from the start `a` and `b` share, as the same objects. */
function sharedStart<T>(a: readonly T[], b: readonly T[]): number {
  const most = Math.min(a.length, b.length);
  let n = 0;
  while (n < most && a[n] === b[n]) n++;
  return n;
}

/** The page's end: what a request sends, given what this port's worker holds. */
export class RequestWriter {
  readonly #tools = new Kept<readonly ToolDeclaration[]>();
  readonly #messages = new Kept<readonly ModelMessage[]>();
  #last = 0;

  /** The request as it crosses, and `sent`, to call once it has (one that could not be cloned changed nothing over there). */
  write(request: ModelRequest): { wire: WireRequest; sent: () => void } {
    const { tools, messages, ...rest } = request;
    const knownTools = this.#tools.entries.find(({ value }) => value.length === tools.length && sharedStart(value, tools) === tools.length);
    const toolList = knownTools?.number ?? ++this.#last;
    let base: number | undefined;
    let keep = 0;
    for (const { number, value } of this.#messages.entries) {
      const shared = sharedStart(value, messages);
      if (shared > keep) [base, keep] = [number, shared];
    }
    const messageList = ++this.#last;
    const wire: WireRequest = {
      ...rest,
      tools: knownTools ? { list: toolList } : { list: toolList, declarations: tools },
      messages: { list: messageList, ...(base === undefined ? {} : { base }), keep, append: messages.slice(keep) },
    };
    const sent = () => {
      if (!knownTools) this.#tools.add(toolList, [...tools]);
      // A copy: the caller's array may change in place (a message pushed) after it was sent.
      this.#messages.add(messageList, [...messages], base);
    };
    return { wire, sent };
  }
}

/** The worker's end: the whole request again, from what it holds. */
export class RequestReader {
  readonly #tools = new Kept<readonly ToolDeclaration[]>();
  readonly #messages = new Kept<readonly ModelMessage[]>();

  /** Undefined where the request names a list this end does not hold (the ends disagree: a bug, said as an error). */
  read(wire: WireRequest): ModelRequest | undefined {
    const { tools: toolRef, messages: messageRef, ...rest } = wire;
    const tools = toolRef.declarations ?? this.#tools.get(toolRef.list);
    const before = messageRef.base === undefined ? [] : this.#messages.get(messageRef.base);
    if (!tools || !before) return undefined;
    if (toolRef.declarations) this.#tools.add(toolRef.list, tools);
    const messages = messageRef.keep === 0 ? messageRef.append : [...before.slice(0, messageRef.keep), ...messageRef.append];
    this.#messages.add(messageRef.list, messages, messageRef.base);
    return { ...rest, tools, messages };
  }
}
