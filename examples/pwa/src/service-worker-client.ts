/// <reference types="vite-plugin-pwa/client" />
// The page's side of the service worker vite-plugin-pwa builds: register it,
// say when the app is ready to work offline, and offer a new version when one
// is waiting.
import { registerSW } from 'virtual:pwa-register';

export interface OfflineStatus {
  status: HTMLElement;
  update: HTMLButtonElement;
}

export function setUpOffline({ status, update }: OfflineStatus): void {
  const say = (text: string, state: string) => {
    status.textContent = text;
    status.dataset.state = state;
  };
  const sw = navigator.serviceWorker;
  if (!sw) return say('No offline support in this browser', 'unsupported');
  // `vite` dev serves no service worker: offline is for the built app.
  if (import.meta.env.DEV) return say('Offline support is off in dev', 'dev');

  say('Preparing offline use…', 'installing');
  const reload = registerSW({
    immediate: true,
    // An update installed while this page runs waits for the person.
    onNeedRefresh: () => (update.hidden = false),
    onRegisterError: (error: unknown) => say(`Offline support failed: ${(error as Error)?.message ?? error}`, 'error'),
    onRegisteredSW: (_url, registration) => {
      // A failed precache (a download cut off) discards the worker; with no
      // older version to fall back on, say so. The browser retries on the next visit.
      registration?.installing?.addEventListener('statechange', (event) => {
        if ((event.target as ServiceWorker).state === 'redundant' && !registration.active) say('Could not save the app for offline use; it retries on the next visit', 'error');
      });
      void controlled().then(() => say('Works offline', 'ready'));
    },
  });
  update.addEventListener('click', () => void reload(true));

  /** Resolves once a worker with the whole precache controls this page. */
  async function controlled(): Promise<void> {
    // `ready`: a worker is active, so its install (the precache) finished.
    await sw.ready;
    if (sw.controller) return;
    // On the first visit it claims this page; after a hard reload, which bypasses it, the next load.
    say('Saved for offline use', 'cached');
    await new Promise((resolve) => sw.addEventListener('controllerchange', resolve, { once: true }));
  }
}
