// Clients of one shared engine host, in this thread: each tab is an
// EngineHost over the one HostedModel, seen through a WorkerModel as the page
// sees it (its own generation channel, its own request ids). `leave(n)` is
// tab n's Web Lock coming free: its page ended the connection, or it closed.
import { WorkerModel } from '../model/worker-model.js';
import { GenerationClient } from '../rpc/generation-channel.js';
import type { ModelSpec, Respond } from '../rpc/worker-protocol.js';
import type { LoadProgress } from '../shared/model.js';
import { FAKE_SPEC } from '../model/scripted-model.js';
import type { FakeModel } from '../testing/fake-model.js';
import { EngineHost } from '../worker/engine-host.js';
import { HostedModel } from '../worker/hosted-model.js';

export function sharedHost() {
  const model = new HostedModel();
  const gone = new Map<string, () => void>();
  const watch = (name: string) => new Promise<void>((resolve) => gone.set(name, resolve));
  let tabs = 0;
  return {
    model,
    /** A new tab's client, connected. */
    tab() {
      const name = `client-${++tabs}`;
      const host = new EngineHost(model, watch);
      const { port1, port2 } = new MessageChannel();
      for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
      host.connect(port2, name);
      const generations = new GenerationClient(port1);
      return {
        host,
        /** Resolves once the host has seen the tab go. */
        leave: async () => {
          gone.get(name)!();
          await new Promise((resolve) => setTimeout(resolve, 0));
        },
        /** Load `fake` as this tab would (its own function script, its own record). */
        async load(fake: FakeModel, onProgress?: (p: LoadProgress) => void) {
          const { respond, record, firstTurn, ...spec } = fake[FAKE_SPEC];
          const full: ModelSpec = { kind: 'fake', ...spec, recordRequests: record !== undefined, firstTurn: firstTurn() };
          const info = await host.load(full, onProgress, respond as Respond | undefined);
          return new WorkerModel({ generations, track: (p) => p }, info, record, 'shared-worker');
        },
      };
    },
  };
}
