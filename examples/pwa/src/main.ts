// The assistant app: wires the model, the chats and the offline machinery to index.html.
import { ChatSession } from './chat-session.js';
import { showChatList } from './chat-list.js';
import { ChatView } from './chat-view.js';
import { showConnectivity } from './connectivity.js';
import { byId } from './dom.js';
import { chooseModel } from './model-choice.js';
import { showModelDownload } from './model-download.js';
import { setUpOffline } from './service-worker-client.js';
import { startAgent } from './start-agent.js';
import { formatBytes, showPersistence, showStorageUsed } from './storage-status.js';

const input = byId<HTMLTextAreaElement>('input');
const send = byId<HTMLButtonElement>('send');
const newChat = byId<HTMLButtonElement>('new-chat');
const modelName = byId('model');
const progress = byId<HTMLProgressElement>('progress');
const view = new ChatView(byId('log'));

// Not awaited: the app is usable while the service worker installs.
void setUpOffline({ status: byId('offline-ready'), update: byId<HTMLButtonElement>('update') });
showConnectivity(byId('network'));

async function main(): Promise<void> {
  const choice = await chooseModel();
  progress.hidden = !choice.webgpu;
  const { agent, notice } = await startAgent(choice, (p) => {
    progress.value = p.loaded !== undefined && p.total ? p.loaded / p.total : p.progress;
    // Bytes and speed while the weights download; the engine's own words for the rest.
    modelName.textContent =
      p.phase === 'download' && p.loaded !== undefined && p.total
        ? `downloading ${choice.modelId}: ${formatBytes(p.loaded)} of ${formatBytes(p.total)}${p.bytesPerSecond ? ` · ${formatBytes(p.bytesPerSecond)}/s` : ''}`
        : p.text;
  });
  progress.hidden = true;
  modelName.textContent = agent.model.modelId;
  if (notice) {
    const banner = byId('banner');
    banner.textContent = notice;
    banner.hidden = false;
  }

  const refreshStorage = () => void showStorageUsed(byId('storage-used'));
  showPersistence(byId('storage-persisted'), agent.storage);
  showModelDownload(choice.modelId, { name: byId('download-model'), state: byId('model-cached'), remove: byId<HTMLButtonElement>('delete-model') }, refreshStorage);
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
  const banner = byId('banner');
  banner.textContent = `The assistant could not start: ${(error as Error)?.message ?? error}`;
  banner.hidden = false;
  modelName.textContent = 'not running';
});
