// Tool sources a test file opens against its server (MCP's, most often),
// closed after each test so that no test leaves a session to the next.

/** `open`, remembering what it opened; `closeAll` closes all of that, for the file's afterEach. */
export function openedSources<A extends unknown[], T extends { close(): Promise<void> }>(open: (...args: A) => Promise<T>) {
  const opened: T[] = [];
  return {
    open: async (...args: A): Promise<T> => {
      const source = await open(...args);
      opened.push(source);
      return source;
    },
    closeAll: async (): Promise<void> => {
      await Promise.all(opened.splice(0).map((source) => source.close()));
    },
  };
}
