// The assistant app: wires the model, the chats and the offline machinery to index.html.
import { ChatSession } from './chat-session.js';
import { showChatList } from './chat-list.js';
import { ChatView } from './chat-view.js';
import { showConnectivity } from './connectivity.js';
import { byId } from './dom.js';
import type { LoadProgress, ModelInfo } from '../../../src/index.js';
import { chooseModel } from './model-choice.js';
import { showModelDownload } from './model-download.js';
import { setUpOffline } from './service-worker-client.js';
import { startAgent, useFake, whyNot } from './start-agent.js';
import { formatBytes, showPersistence, showStorageUsed } from './storage-status.js';

const input = byId<HTMLTextAreaElement>('input');
const send = byId<HTMLButtonElement>('send');
const newChat = byId<HTMLButtonElement>('new-chat');
const modelName = byId('model');
const engine = byId('engine');
const banner = byId('banner');
const progress = byId<HTMLProgressElement>('progress');
const view = new ChatView(byId('log'));

// Not awaited: the app is usable while the service worker installs.
void setUpOffline({ status: byId('offline-ready'), update: byId<HTMLButtonElement>('update') });
showConnectivity(byId('network'));

/** Load progress: bytes and speed while the weights download; the engine's own words for the rest. */
function showProgress(modelId: string, p: LoadProgress): void {
  progress.hidden = false;
  progress.value = p.loaded !== undefined && p.total ? p.loaded / p.total : p.progress;
  engine.textContent = '';
  modelName.textContent =
    p.phase === 'download' && p.loaded !== undefined && p.total
      ? `downloading ${modelId}: ${formatBytes(p.loaded)} of ${formatBytes(p.total)}${p.bytesPerSecond ? ` · ${formatBytes(p.bytesPerSecond)}/s` : ''}`
      : p.text;
}

function showModel(info: ModelInfo): void {
  progress.hidden = true;
  modelName.textContent = info.modelId;
  const runs = info.engine === 'webllm' ? 'on WebGPU (WebLLM)' : info.engine === 'wllama' ? `on the CPU (wllama, ${info.threads ?? 1} thread${info.threads && info.threads > 1 ? 's' : ''})` : 'scripted fake';
  engine.textContent = info.host === 'shared-worker' ? `${runs}, shared by this app's tabs` : runs;
}

function showNotice(text: string | undefined): void {
  banner.textContent = text ?? '';
  banner.hidden = !text;
}

async function main(): Promise<void> {
  const choice = await chooseModel();
  const { agent, notice } = await startAgent(choice, (p) => showProgress(choice.engine === 'fake' ? '' : choice.modelId, p));
  showModel(agent.model);
  showNotice(notice);

  const refreshStorage = () => void showStorageUsed(byId('storage-used'));
  showPersistence(byId('storage-persisted'), agent.storage);
  if (choice.engine !== 'fake') {
    const { modelId } = choice;
    // The CPU model is offered, not fetched by itself: once downloaded it runs, and on later starts, offline too.
    const download =
      choice.engine === 'wllama' && !choice.downloaded
        ? async () => {
            try {
              await agent.load(modelId, { onProgress: (p) => showProgress(modelId, p) });
              showNotice(undefined);
            } catch (error) {
              showNotice(`Could not download ${modelId}: ${whyNot(error)}. The scripted fake model answers meanwhile.`);
              await useFake(agent);
            }
            showModel(agent.model);
          }
        : undefined;
    const elements = { name: byId('download-model'), state: byId('model-cached'), get: byId<HTMLButtonElement>('get-model'), remove: byId<HTMLButtonElement>('delete-model') };
    showModelDownload(modelId, elements, { download, changed: refreshStorage });
  } else {
    byId('model-download').hidden = true;
  }
  refreshStorage();

  const session = new ChatSession(agent, view);

  async function refreshChats(): Promise<void> {
    showChatList(byId('chat-list'), await agent.listChats(), session.currentId, (id) => void openChat(id));
  }

  async function openChat(id: string): Promise<void> {
    try {
      await session.open(id);
    } catch (error) {
      view.add('error', `Could not open the chat: ${(error as Error).message}`);
    }
    await refreshChats();
  }

  // Pick up where the user left off: the newest chat, if any.
  const [newest] = await agent.listChats();
  if (newest) await openChat(newest.id);
  else await refreshChats();

  newChat.addEventListener('click', () => {
    session.startNew();
    void refreshChats();
    input.focus();
  });

  byId<HTMLFormElement>('composer').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || send.disabled) return;
    input.value = '';
    send.disabled = newChat.disabled = true;
    try {
      await session.send(text);
    } catch (error) {
      view.add('error', `${(error as Error).name}: ${(error as Error).message}`);
    } finally {
      send.disabled = newChat.disabled = false;
      await refreshChats();
      refreshStorage();
      input.focus();
    }
  });

  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      byId<HTMLFormElement>('composer').requestSubmit();
    }
  });

  input.disabled = send.disabled = newChat.disabled = false;
  input.focus();
}

// Without this, a failed start (say, a database another tab holds at an older
// version) would leave the page saying "starting…" forever.
main().catch((error: unknown) => {
  showNotice(`The assistant could not start: ${(error as Error)?.message ?? error}`);
  modelName.textContent = 'not running';
});
