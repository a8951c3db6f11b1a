/**
 * A write was refused because the stored chat changed since this copy last
 * read it (another tab, or another Chat object, committed first), or because
 * it keeps an answer another writer left unfinished (`draftLeft`), which the
 * write would drop. Internal: the chat catches it, catches up (keeping that
 * answer as an interrupted one) and tries again.
 */
export class StaleChatError extends Error {
  override readonly name = 'StaleChatError';

  constructor(
    readonly chatId: string,
    readonly expected: number,
    readonly actual: number,
    readonly draftLeft = false,
  ) {
    super(draftLeft ? `Chat ${chatId} keeps an answer another writer left unfinished.` : `Chat ${chatId} is at version ${actual}, not ${expected}.`);
  }
}
