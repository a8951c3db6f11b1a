// A tab's client of a shared worker holds a Web Lock of its own name while
// it lives; the shared worker asks for the same lock, and is granted it when
// the tab releases it (the connection ended) or the browser does (the tab
// closed, navigated or crashed). Measured in Chromium 156: a shared worker's
// MessagePort fires no close event (not when the page closes its port, not
// when its frame goes), while a lock a removed frame held is granted to the
// worker at once; so this is how the shared host learns a tab is gone. Web
// Locks need a secure context (https, localhost); elsewhere the host never
// hears a tab leave, and its model lives until every tab of it has closed.

export interface ClientLock {
  /** The lock's name, for the shared worker to watch; undefined where Web Locks are missing (the host then never hears the tab leave). */
  name: string | undefined;
  release(): void;
}

export async function holdClientLock(): Promise<ClientLock> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return { name: undefined, release: () => undefined };
  const name = `tabagent-client:${crypto.randomUUID()}`;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((granted) => {
    void locks.request(name, () => {
      granted();
      return held;
    });
  });
  return { name, release };
}
