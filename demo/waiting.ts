// Whether a send on a chat is queued behind another tab's run on it.
//
// tabagent runs one chat's turns one at a time across tabs by holding a Web
// Lock named after the chat while a run goes on. The browser lists the lock
// requests still waiting (navigator.locks.query()), so a request for this
// chat's lock that has not been granted means another tab's run holds it.
// tabagent does not announce "queued" itself: the lock's name (it ends with
// `:<chatId>`) is the one detail this reads from outside.

type LockQuery = { pending?: Array<{ name?: string }>; held?: Array<{ name?: string }> };
type Locks = { query(): Promise<LockQuery> };

export async function whyWaiting(chatId: string): Promise<'other-tab' | null> {
  const locks = (navigator as Navigator & { locks?: Locks }).locks;
  if (!locks?.query) return null;
  const { pending = [] } = await locks.query().catch((): LockQuery => ({}));
  return pending.some((lock) => lock.name?.endsWith(`:${chatId}`)) ? 'other-tab' : null;
}
