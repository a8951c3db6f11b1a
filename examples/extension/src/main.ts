// The side panel: starts the agent with chats in the extension's own
// IndexedDB, reopens the newest chat, and sends messages with the page tools.
import { createAgent, type Agent, type Chat, type LoadProgress, type ModelInfo } from '../../../src/index.js';
import { callLine, ChatView, resultLine } from './chat-view.js';
import { chooseModel, readModelSetting, saveModelSetting } from './model-choice.js';
import { pageTools } from './page-tools.js';

const SYSTEM = 'You are a concise assistant in a browser side panel. Use the tools to read the web page open beside you: its title, the text the user selected, its links.';

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`sidepanel.html has no #${id}`);
  return element as T;
}

const input = byId<HTMLTextAreaElement>('input');
const send = byId<HTMLButtonElement>('send');
const newChat = byId<HTMLButtonElement>('new-chat');
const progress = byId<HTMLProgressElement>('progress');
const banner = byId('banner');
const view = new ChatView(byId('log'));

function showProgress(p: LoadProgress): void {
  progress.hidden = false;
  progress.value = p.loaded !== undefined && p.total ? p.loaded / p.total : p.progress;
  byId('model').textContent = p.text;
}

function showModel(info: ModelInfo): void {
  progress.hidden = true;
  byId('model').textContent = info.modelId;
  byId('engine').textContent = info.engine === 'webllm' ? 'on WebGPU' : info.engine === 'wllama' ? 'on the CPU' : `(${info.engine})`;
}

function showError(text: string): void {
  banner.textContent = text;
  banner.hidden = false;
}

async function sendTo(agent: Agent, current: Chat | null, text: string): Promise<Chat> {
  const chat = current ?? (await agent.newChat({ system: SYSTEM, tools: pageTools }));
  view.add('user', text);
  const offs = [
    chat.on('tool-start', ({ toolName, input: args }) => void view.add('tool', callLine(toolName, args))),
    chat.on('tool-end', ({ toolName, content, isError }) => void view.add('tool', resultLine(toolName, content, isError))),
  ];
  let bubble: HTMLElement | null = null;
  let step = -1;
  try {
    for await (const chunk of chat.sendStream(text)) {
      if (chunk.type !== 'text') continue;
      if (!bubble || chunk.step !== step) (bubble = view.add('assistant', '')), (step = chunk.step);
      view.extend(bubble, chunk.text);
    }
    // The stored order of replies and tool lines, which streaming may have interleaved differently.
    view.showMessages(chat.messages);
  } catch (error) {
    view.add('error', `${(error as Error).name}: ${(error as Error).message}`);
  } finally {
    for (const off of offs) off();
  }
  return chat;
}

async function main(): Promise<void> {
  const setting = byId<HTMLInputElement>('model-setting');
  setting.value = await readModelSetting();
  byId<HTMLFormElement>('model-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    await saveModelSetting(setting.value);
    location.reload();
  });

  // The store opens at once; the model goes on loading while the stored chat shows.
  const agent = await createAgent({ ...(await chooseModel()), storage: { dbName: 'tabagent-extension' }, onProgress: showProgress });
  agent.ready.then(showModel, (error: unknown) => showError(`The model could not load: ${(error as Error)?.message ?? error}`));

  let chat: Chat | null = null;
  const [newest] = await agent.listChats();
  if (newest) {
    // Tools are code, not data: a reopened chat gets them again.
    chat = await agent.openChat(newest.id, { tools: pageTools });
    view.showMessages(chat.messages);
  }

  newChat.addEventListener('click', () => {
    chat = null;
    view.clear();
    input.focus();
  });
  byId<HTMLFormElement>('composer').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || send.disabled) return;
    input.value = '';
    send.disabled = newChat.disabled = true;
    try {
      chat = await sendTo(agent, chat, text);
    } finally {
      send.disabled = newChat.disabled = false;
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

main().catch((error: unknown) => {
  showError(`The assistant could not start: ${(error as Error)?.message ?? error}`);
  byId('model').textContent = 'not running';
});
