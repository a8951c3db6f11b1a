/**
 * Resolves in a task of its own, after this one and its microtasks: work
 * that can wait (a write that overlaps the model) then goes after what
 * cannot, and the fake model yields between tokens as a real one does. A
 * message, not a timer: nested timers are held to 4 ms at least. One channel
 * for the whole realm, and one message for all that wait on the same task: a
 * MessageChannel costs more to make than to use.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) port().postMessage(null);
  });
}

let waiting: Array<() => void> = [];
let channel: MessageChannel | undefined;

function port(): MessagePort {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const due = waiting;
      waiting = [];
      for (const resolve of due) resolve();
    };
    // Node keeps a process alive while a port listens; this one waits on nothing of its own.
    for (const end of [channel.port1, channel.port2]) (end as MessagePort & { unref?: () => void }).unref?.();
  }
  return channel.port2;
}
