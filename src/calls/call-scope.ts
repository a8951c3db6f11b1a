// What a chat used as a tool (chat.asTool) must know of the call it answers,
// beyond its ToolContext: the chats whose runs wait on the call (sending into
// one of them would wait for its own lock forever), and where it notes the
// chat it ran in, which the call's result records. Kept beside the context
// (keyed by it), not on it: handlers see the ToolContext they always did.
export interface CallScope {
  /** Chat ids of the runs waiting on this call, the outermost first. */
  readonly chain: readonly string[];
  /** The chat the handler ran the call in, if it says so. */
  chatId?: string;
}

const scopes = new WeakMap<object, CallScope>();

export function setScope(context: object, scope: CallScope): void {
  scopes.set(context, scope);
}

export function scopeOf(context: object): CallScope | undefined {
  return scopes.get(context);
}
