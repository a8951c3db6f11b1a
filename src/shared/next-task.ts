/**
 * Resolves in a task of its own, after this one and its microtasks: work
 * that can wait (a write that overlaps the model, news for other tabs) then
 * goes after what cannot. A message, not a timer: nested timers are held to
 * 4 ms at least.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
