/** The text of anything thrown: an error's message (from any realm), a string as it is, else its JSON. */
export function messageOf(cause: unknown): string {
  if (typeof cause === 'string') return cause;
  const message = (cause as { message?: unknown } | null | undefined)?.message;
  if (typeof message === 'string') return message;
  try {
    return JSON.stringify(cause) ?? String(cause);
  } catch {
    return String(cause);
  }
}
