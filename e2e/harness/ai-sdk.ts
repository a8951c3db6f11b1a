// The AI SDK's own code against tabagent/ai-sdk, in a production build: its
// functions on `window.aiSdk` for Playwright's page.evaluate, and, with
// `?app=stored` or `?app=direct`, a small React app on useChat (from
// @ai-sdk/react): a stored tabagent chat (TabAgentChatTransport), or the
// AI SDK's own tool loop (DirectChatTransport, ToolLoopAgent) on the
// provider. `&model=tiny` runs the tiny GGUF on wllama, else the fake model.
import { Chat as UiChat, useChat } from '@ai-sdk/react';
import {
  DirectChatTransport,
  generateObject,
  generateText,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  Output,
  stepCountIs,
  streamObject,
  streamText,
  tool as aiTool,
  ToolLoopAgent,
  type ChatTransport,
  type UIMessage,
} from 'ai';
import { createElement as h, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { createAgent, tool, type Agent, type ChatOptions } from '../../src/index.js';
import { createTabAgent, languageModelOf, TabAgentChatTransport } from '../../src/ai-sdk/index.js';
import { fakeModel, toolCallText } from '../../src/testing/index.js';

const api = { generateText, streamText, generateObject, streamObject, Output, stepCountIs, aiTool, createTabAgent, languageModelOf, createAgent, tool, fakeModel, toolCallText, z, UiChat, TabAgentChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses };
declare global {
  interface Window {
    aiSdk: typeof api;
    /** The app's agent, for a test to look into (its chats, its model). */
    appAgent?: Agent;
  }
}
window.aiSdk = api;

const TINY = { gguf: '/models/tiny-qwen3.gguf', contextSize: 1024 };
const params = new URLSearchParams(location.search);

// The fake stands in for a model that calls the tool the person asks for, then answers from its result.
const fake = () =>
  fakeModel((request) => {
    if (request.last.includes('<tool_response>')) return `Done: ${/"(deleted|denied)"/.exec(request.last)?.[1] ?? 'answered'}.`;
    if (/weather/i.test(request.last)) return toolCallText('get_weather', { city: 'Paris' });
    if (/clean/i.test(request.last)) return toolCallText('delete_file', { path: 'old.log' });
    return 'Hello from the fake model.';
  });

/** The calls each tool ran, for the test to read. */
const ran: string[] = ((window as unknown as { ran: string[] }).ran = []);

async function storedApp(agent: Agent): Promise<{ transport: ChatTransport<UIMessage>; id: string; messages: UIMessage[] }> {
  const options: ChatOptions = {
    tools: [
      tool({ name: 'get_weather', description: 'Weather for a city', input: z.object({ city: z.enum(['Paris', 'Tokyo']) }), readOnly: true, run: ({ city }) => (ran.push(`weather ${city}`), { city, forecast: 'sunny' }) }),
      tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.enum(['old.log', 'notes.txt']) }), needsApproval: true, run: ({ path }) => (ran.push(`delete ${path}`), { deleted: path }) }),
    ],
    generation: { thinking: false },
    // The tiny model picks its longest token: made to call the tool first, it then writes a few tokens and stops.
    ...(params.get('model') === 'tiny' ? { toolChoice: { name: 'delete_file' }, prepareStep: ({ hop }) => (hop > 0 ? { toolChoice: 'none' as const, generation: { thinking: false, maxTokens: 4 } } : undefined) } : {}),
  };
  const transport = new TabAgentChatTransport({ agent, ...options });
  // The chat's id lives in the URL, so a reload opens the same stored chat.
  const id = location.hash.slice(1) || (await transport.newChat());
  location.hash = id;
  return { transport, id, messages: await transport.messages(id) };
}

function directApp(agent: Agent): { transport: ChatTransport<UIMessage>; id: string; messages: UIMessage[] } {
  const tiny = params.get('model') === 'tiny';
  const loop = new ToolLoopAgent({
    model: languageModelOf(agent),
    reasoning: 'none',
    tools: {
      get_weather: aiTool({ description: 'Weather for a city', inputSchema: z.object({ city: z.enum(['Paris', 'Tokyo']) }), execute: async ({ city }) => (ran.push(`weather ${city}`), { city, forecast: 'sunny' }) }),
    },
    stopWhen: stepCountIs(3),
    // The tiny model: two forced calls, then a few tokens of text.
    prepareStep: ({ stepNumber }) => (tiny ? (stepNumber < 2 ? { toolChoice: { type: 'tool', toolName: 'get_weather' } } : { toolChoice: 'none' }) : {}),
    ...(tiny ? { maxOutputTokens: 60 } : {}),
  });
  return { transport: new DirectChatTransport({ agent: loop }) as unknown as ChatTransport<UIMessage>, id: 'direct', messages: [] };
}

function App({ transport, id, messages }: { transport: ChatTransport<UIMessage>; id: string; messages: UIMessage[] }) {
  const chat = useChat({ id, transport, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  const [input, setInput] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void chat.sendMessage({ text: input });
    setInput('');
  };
  return h(
    'main',
    null,
    h('p', { id: 'chat-status' }, chat.status),
    chat.error ? h('p', { id: 'chat-error' }, `${chat.error.name}: ${chat.error.message}`) : null,
    ...chat.messages.map((message) =>
      h(
        'section',
        { key: message.id, className: `message ${message.role}`, 'data-id': message.id },
        ...message.parts.map((part, i) => {
          if (part.type === 'text') return h('p', { key: i, className: 'text' }, part.text);
          if (!('toolCallId' in part)) return null;
          const name = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
          return h(
            'div',
            { key: i, className: 'tool', 'data-state': part.state },
            `${name}: ${part.state}`,
            part.state === 'approval-requested'
              ? h('span', null, h('button', { onClick: () => void chat.addToolApprovalResponse({ id: part.approval.id, approved: true }) }, 'Approve'), h('button', { onClick: () => void chat.addToolApprovalResponse({ id: part.approval.id, approved: false, reason: 'the person said no' }) }, 'Deny'))
              : null,
          );
        }),
      ),
    ),
    h('form', { onSubmit: submit }, h('input', { 'aria-label': 'Message', value: input, onChange: (e: { target: { value: string } }) => setInput(e.target.value) }), h('button', { type: 'submit' }, 'Send')),
  );
}

const app = params.get('app');
if (app) {
  const agent = await createAgent({ model: params.get('model') === 'tiny' ? TINY : fake(), storage: { dbName: 'tabagent-ai-sdk-e2e' } });
  window.appAgent = agent;
  const props = app === 'stored' ? await storedApp(agent) : directApp(agent);
  createRoot(document.getElementById('app')!).render(h(App, props));
}
document.getElementById('status')!.textContent = 'ready';
