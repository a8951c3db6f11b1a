// Whether the model is downloaded, a button to download it (the CPU model,
// offered rather than fetched by itself) and one to delete it: weights take
// hundreds of megabytes, and a corrupt download is fixed by deleting it.
import { deleteCachedModel, isModelCached, listModels } from '../../../src/index.js';
import { formatBytes } from './storage-status.js';

export interface ModelDownloadElements {
  name: HTMLElement;
  state: HTMLElement;
  get: HTMLButtonElement;
  remove: HTMLButtonElement;
}

export interface ModelDownloadActions {
  /** Downloads and runs the model; given when the app offers it instead of fetching it by itself. */
  download?: () => Promise<void>;
  /** Something was downloaded or deleted: storage use changed. */
  changed: () => void;
}

export function showModelDownload(modelId: string, elements: ModelDownloadElements, actions: ModelDownloadActions): void {
  const { name, state, get, remove } = elements;
  name.textContent = modelId;
  let cached = false;
  let busy = false;
  const buttons = () => {
    remove.disabled = busy || !cached;
    get.hidden = !actions.download || cached;
    // Offline a download could only fail.
    get.disabled = busy || !navigator.onLine;
    get.title = navigator.onLine ? '' : 'You are offline';
  };
  const refresh = async () => {
    busy = true;
    buttons();
    state.textContent = 'checking…';
    try {
      cached = await isModelCached(modelId);
      state.textContent = cached ? 'downloaded' : 'not downloaded';
      state.dataset.cached = String(cached);
    } catch (error) {
      state.textContent = `unknown (${(error as Error).message})`;
    }
    busy = false;
    buttons();
  };
  get.setAttribute('aria-label', `Download ${modelId}`);
  get.textContent = 'Download';
  if (actions.download) {
    // The size, when the server says it (a HEAD request): worth knowing before hundreds of megabytes.
    void listModels({ ids: [modelId], fetchSizes: true })
      .then(([listing]) => {
        if (listing?.downloadBytes) get.textContent = `Download (${formatBytes(listing.downloadBytes)})`;
      })
      .catch(() => undefined);
    addEventListener('online', buttons);
    addEventListener('offline', buttons);
  }
  get.addEventListener('click', async () => {
    busy = true;
    buttons();
    state.textContent = 'downloading…';
    await actions.download?.();
    await refresh();
    actions.changed();
  });
  remove.addEventListener('click', async () => {
    const again = actions.download ? 'Download it again to use it.' : 'It will download again the next time the app starts online.';
    if (!confirm(`Delete the downloaded ${modelId}? ${again}`)) return;
    busy = true;
    buttons();
    state.textContent = 'deleting…';
    try {
      await deleteCachedModel(modelId);
    } catch (error) {
      state.textContent = `could not delete: ${(error as Error).message}`;
      busy = false;
      buttons();
      return;
    }
    await refresh();
    actions.changed();
  });
  void refresh();
}
