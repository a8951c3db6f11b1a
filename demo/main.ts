// The demo page: one agent, created without a model so the stored chats are
// there at once; a model loads when the person picks one (or one is already
// downloaded). This file wires the pieces to the page and to each other.
import { createAgent, type LoadProgress } from '../src/index.js';
import { Chats } from './chats.js';
import { canRunCpuModels } from './cpu-catalog.js';
import { loadFailureText } from './error-text.js';
import { connectMcp, mcpAddress } from './mcp.js';
import { detectGpu, type GpuSupport } from './gpu.js';
import { ModelLoader, startupChoice, type LoadSource } from './model-loader.js';
import { ModelMenu } from './model-menu.js';
import { GGUF_CHOICES, type ModelChoice } from './models.js';
import { loadingStatus, noGpuNote, noWebGpuNotice, readyStatus } from './notices.js';
import { OwnGgufs } from './own-gguf.js';
import { Banner } from './ui/banner.js';
import { ChatList } from './ui/chat-list.js';
import { Composer } from './ui/composer.js';
import { ConfirmDialog } from './ui/dialog.js';
import { byId } from './ui/dom.js';
import { Drawer } from './ui/drawer.js';
import { icon } from './ui/icons.js';
import { LoadIndicator } from './ui/load-progress.js';
import { Toasts } from './ui/toast.js';
import { Transcript } from './ui/transcript.js';

// No `persist: true`: Firefox would greet every first visit with a permission prompt.
const STORAGE = { dbName: 'tabagent-demo' };

const modelStatus = byId('model', HTMLParagraphElement);
const modelButton = byId('model-button', HTMLButtonElement);
const modelName = byId('model-name', HTMLSpanElement);
const banner = new Banner(byId('banner', HTMLDivElement));
const drawer = new Drawer(byId('menu', HTMLButtonElement), byId('scrim', HTMLDivElement), byId('close-sidebar', HTMLButtonElement));
const transcript = new Transcript(byId('log', HTMLDivElement));
const dialog = new ConfirmDialog(byId('dialog', HTMLDialogElement));
const toasts = new Toasts(byId('toasts', HTMLDivElement));

let gpu: GpuSupport = { available: false, f16: false };
/** wllama runs here (WebAssembly memory64 and JSPI): asked at start, with the GPU. */
let cpuRuns = true;

async function boot(): Promise<void> {
  const agent = await createAgent({ storage: STORAGE });
  byId('storage-note', HTMLParagraphElement).textContent =
    agent.storage.kind === 'indexeddb' ? 'Chats are kept in this browser (IndexedDB).' : `Chats last only until this tab closes: ${agent.storage.reason ?? 'no IndexedDB'}.`;

  const loader: ModelLoader = new ModelLoader(agent, {
    loading: (choice, from) => showLoading(choice, from),
    progress: (choice, progress) => showProgress(choice, progress),
    ready: (choice, failed) => showReady(choice, failed),
    cancelled: (choice) => showCancelled(choice),
  });
  const loading = new LoadIndicator(byId('load', HTMLElement), () => loader.cancel());
  const own = new OwnGgufs(location.search);
  const menu = new ModelMenu(byId('models', HTMLDialogElement), loader, own, dialog, toasts, () => (gpu.available ? undefined : noGpuNote(cpuRuns)));
  const composer = new Composer(byId('composer', HTMLFormElement), byId('input', HTMLTextAreaElement), byId('send', HTMLButtonElement), {
    send: (text) => chats.send(text),
    stop: () => void chats.stop(),
  });
  const chats: Chats = new Chats(agent, {
    transcript,
    list: new ChatList(byId('chat-list', HTMLUListElement), {
      open: (id) => guard(chats.open(id).then(() => (drawer.close(), composer.focus()))),
      rename: (id, title) => guard(chats.rename(id, title)),
      remove: (id, title) => guard(chats.remove(id, title)),
      exportChat: (id, title) => guard(chats.exportChat(id, title)),
    }),
    dialog,
    toasts,
    busy: (busy) => {
      composer.setBusy(busy);
      if (!busy) composer.focus();
    },
    emptyState: () => emptyState(loader.current, () => void menu.open()),
    modelLoading: () => loader.loading,
  });

  /** What the page offers follows where the model stands: sending, regenerating, the empty chat's words. */
  function modelChanged(): void {
    const canSend = loader.current !== null;
    composer.setEnabled(canSend, canSend ? undefined : 'Choose a model to start chatting');
    transcript.setActionsEnabled(canSend);
    chats.showEmpty();
    menu.refresh();
  }

  function showLoading(choice: ModelChoice, from: LoadSource): void {
    setModelName(choice.label);
    modelStatus.textContent = loadingStatus(choice);
    // A real model is on its way: "a scripted fake model answers until you choose one" (or an
    // earlier failure's notice) no longer holds. If this load fails, its own notice comes.
    if (choice.kind !== 'fake') banner.hide();
    // A scripted model with nothing to download loads at once: no panel for it.
    if (from !== 'none') loading.start(choice.label, from, choice.kind === 'gguf' ? 'cpu' : 'gpu');
    modelChanged();
  }

  function showProgress(choice: ModelChoice, progress: LoadProgress): void {
    if (loader.current?.key !== choice.key) return;
    // The numbers are in the panel; the status line says only what is happening.
    loading.update(progress);
  }

  function showReady(choice: ModelChoice, failed?: { choice: ModelChoice; error: unknown }): void {
    loading.done();
    setModelName(choice.label);
    modelStatus.textContent = readyStatus(agent.model);
    if (failed) {
      banner.show({
        text: `${loadFailureText(failed.choice.label, failed.error)} The scripted fake model answers meanwhile.`,
        action: {
          label: 'Retry',
          run: () => {
            banner.hide();
            void loader.load(failed.choice);
          },
        },
      });
    }
    modelChanged();
  }

  function showCancelled(choice: ModelChoice): void {
    loading.done();
    setModelName(null);
    modelStatus.textContent = 'no model';
    toasts.show(`Cancelled the download of ${choice.label}.`);
    modelChanged();
  }

  modelButton.append(icon('chevron'));
  modelButton.addEventListener('click', () => void menu.open());
  wirePage(chats, composer);

  // The sidebar fills at once: the store does not wait for any model.
  setModelName(null);
  modelStatus.textContent = 'checking this browser…';
  modelChanged();
  await chats.restore();
  document.body.dataset.chats = 'ready';
  // An MCP server the address names (?mcp=…): its tools join every chat once it answers.
  const mcp = mcpAddress(location.search);
  if (mcp) {
    guard(
      connectMcp(mcp, dialog).then(async (server) => {
        await chats.addTools(server);
        toasts.show(`Connected to ${server.server.name || new URL(server.url).host}: ${server.tools.map((t) => t.name).join(', ')}.`);
      }),
    );
  }

  [gpu, cpuRuns] = await Promise.all([detectGpu(), canRunCpuModels()]);
  const first = await startupChoice(gpu.available);
  // Without WebGPU the notice says what runs instead, unless a downloaded CPU model is about to.
  if (!gpu.available && first?.kind !== 'gguf') banner.show(noWebGpuNotice(gpu.reason, cpuRuns, () => void menu.open()));
  // A URL chosen on an earlier visit is listed again, to show it in use.
  if (first?.kind === 'gguf' && !GGUF_CHOICES.some((c) => c.key === first.key)) own.add(first);
  if (first) await loader.load(first);
  else modelStatus.textContent = 'no model: nothing downloads until you choose one';
  document.body.dataset.ready = 'true';
}

function setModelName(label: string | null): void {
  modelName.textContent = label ?? 'Choose a model';
  modelButton.setAttribute('aria-label', label ? `Model: ${label}. Choose a model` : 'Choose a model');
}

function emptyState(current: ModelChoice | null, choose: () => void) {
  if (!current) {
    return { title: 'Choose a model to start', note: 'Nothing downloads until you choose. Stored chats are on the left, ready to read.', action: { label: 'Choose a model', run: choose } };
  }
  if (current.kind === 'fake') return { title: 'Chat with the scripted fake model', note: 'It understands a few requests. Try one of these:' };
  if (current.kind === 'gguf') return { title: 'What can I help with?', note: 'A small model on your CPU: replies take a while. Ask something, or try one of these:' };
  return { title: 'What can I help with?', note: 'Ask something, or try one of these:' };
}

/** The page's own controls: new chat, import, Escape. */
function wirePage(chats: Chats, composer: Composer): void {
  byId('new-chat', HTMLButtonElement).addEventListener('click', () => {
    drawer.close();
    guard(chats.startNew().then(() => composer.focus()));
  });
  const importInput = byId('import', HTMLInputElement);
  importInput.addEventListener('change', () => {
    const file = importInput.files?.[0];
    importInput.value = '';
    if (file) guard(chats.importFile(file));
  });
  document.addEventListener('keydown', (event) => {
    // The dialogs handle their own Escape (as "no"); a rename input handles its own too.
    if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
    if (chats.running) {
      event.preventDefault();
      void chats.stop();
    } else if (drawer.isOpen) {
      drawer.close();
    }
  });
}

/** Run a user's action; a failure becomes a notice instead of an unhandled rejection. */
function guard(action: Promise<void>): void {
  action.catch((error: unknown) => toasts.show(`${(error as Error).name}: ${(error as Error).message}`, 'error'));
}

boot().catch((error: unknown) => {
  banner.show({ text: `The demo could not start: ${(error as Error).message}` });
  modelStatus.textContent = 'not running';
});
