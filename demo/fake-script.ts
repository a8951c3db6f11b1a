// What the demo's fake model says, when the browser has no WebGPU (and in the
// tests). It is a script, not a language model: it reacts to a few kinds of
// request so that a person can try every part of the page — a managed tool
// with progress, a raw tool the page answers, a tool that needs approval, a
// long streamed answer to stop with Escape, a reply full of HTML that must
// stay text, and (with an MCP server on the address, ?mcp=…) a tool whose
// server asks the person to fill a form.
import type { ModelFamily } from '../src/index.js';
import type { FakeOutput, FakeRequest } from '../src/testing/index.js';
import { toolCallsText } from '../src/testing/index.js';

/** Slow enough to watch the words arrive, and to stop the story halfway. */
export const FAKE_TOKEN_DELAY_MS = 12;
const STORY_TOKEN_DELAY_MS = 20;

interface PastCall {
  name: string;
  args: Record<string, unknown>;
}

export function demoScript(family: ModelFamily): (request: FakeRequest) => FakeOutput {
  // Calls after a line of text, where the family's format lets calls follow text.
  const call = (lead: string, ...calls: Array<{ name: string; arguments?: Record<string, unknown> }>) => toolCallsText(calls, family, lead);
  return (request) => {
    const results = toolResults(request);
    if (results) return afterTools(previousCalls(request), results);
    return answer(request.last, call);
  };
}

function answer(text: string, call: (lead: string, ...calls: Array<{ name: string; arguments?: Record<string, unknown> }>) => string): FakeOutput {
  const weather = /\bweather\b/i.test(text);
  if (weather) {
    const place = /\b(?:in|for|at)\s+(.+?)[\s?.!]*$/i.exec(text)?.[1];
    if (!place) return 'Which city? Try "What is the weather in Boston?"';
    const cities = place.split(/\s+(?:and|&)\s+/i).map((c) => c.trim()).filter(Boolean);
    return call(cities.length > 1 ? 'Let me check those forecasts.' : 'Let me check the forecast.', ...cities.map((location) => ({ name: 'get_weather', arguments: { location } })));
  }
  const remove = /\b(?:delete|remove|erase)\s+(?:the\s+)?(?:file\s+)?["'`]?([\w][\w.\-/]*)["'`]?/i.exec(text);
  if (remove) return call('That cannot be undone, so the page will ask you first.', { name: 'delete_file', arguments: { path: remove[1]!.replace(/\.+$/, '') } });
  if (/\bsign me up\b/i.test(text)) return call('The server will ask you a few things.', { name: 'sign_up' });
  if (/\b(page|time|where am i)\b/i.test(text)) return call('', { name: 'get_page_info' });
  if (/\b(story|long|stream)/i.test(text)) return { text: STORY, tokenDelayMs: STORY_TOKEN_DELAY_MS };
  if (/\b(html|markdown|xss|format)/i.test(text)) return HTML_REPLY;
  return HELP;
}

function afterTools(calls: PastCall[], results: unknown[]): string {
  const lines = results.map((result, i) => describe(calls[i], result));
  return lines.length > 1 ? `Here is what I found:\n\n${lines.map((l) => `- ${l}`).join('\n')}` : (lines[0] ?? 'The tool said nothing.');
}

function describe(call: PastCall | undefined, result: unknown): string {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const path = String(call?.args.path ?? 'the file');
  if (r.denied) return call?.name === 'delete_file' ? `Okay, I left \`${path}\` alone: ${String(r.reason ?? 'you said no')}.` : `I was not allowed to: ${String(r.reason)}.`;
  if (typeof r.error === 'string') return `That did not work: ${r.error}`;
  switch (call?.name) {
    case 'get_weather':
      return `The forecast for **${String(r.location)}** is ${String(r.forecast)}.`;
    case 'get_page_info':
      return `You are on **${String(r.title)}**, and your clock says ${String(r.time)}.`;
    case 'delete_file': {
      const left = Array.isArray(r.remaining) && r.remaining.length ? r.remaining.map((f) => `\`${String(f)}\``).join(', ') : 'nothing';
      return `Done: \`${String(r.deleted)}\` is gone. Still there: ${left}.`;
    }
    case 'sign_up':
      return typeof result === 'string' ? result : `The tool answered: \`${JSON.stringify(result)}\``;
    default:
      return `The tool answered: \`${JSON.stringify(result)}\``;
  }
}

/**
 * The results the model is reading now, or null when the last message is the
 * user's. Hermes puts them in one user turn of <tool_response> blocks; Llama
 * sends one tool message (a list when there were several calls).
 */
function toolResults(request: FakeRequest): unknown[] | null {
  const last = request.messages.at(-1);
  if (!last) return null;
  if (last.role === 'tool') {
    const parsed = parse(last.content);
    return previousCalls(request).length > 1 && Array.isArray(parsed) ? parsed : [parsed];
  }
  if (last.role === 'user' && last.content.startsWith('<tool_response>')) {
    return [...last.content.matchAll(/<tool_response>\n([\s\S]*?)\n<\/tool_response>/g)].map((m) => parse(m[1]!));
  }
  return null;
}

/** The calls of the assistant turn before the results: this script writes each on a line of its own. */
function previousCalls(request: FakeRequest): PastCall[] {
  const turn = request.messages.at(-2);
  if (turn?.role !== 'assistant') return [];
  return turn.content.split('\n').flatMap((line) => {
    const json = parse(line.trim()) as { name?: unknown; arguments?: unknown; parameters?: unknown } | undefined;
    if (typeof json?.name !== 'string') return [];
    return [{ name: json.name, args: ((json.arguments ?? json.parameters ?? {}) as Record<string, unknown>) }];
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const HELP = `I am a **scripted fake model**: no GPU needed, and no real understanding either. I react to a few kinds of message:

- *"What is the weather in Boston?"* calls a tool the agent runs itself (try two cities: "in Oslo and Lima").
- *"What page am I on?"* calls a tool the page answers.
- *"Delete notes.txt"* calls a destructive tool, so you are asked first.
- *"Tell me a long story"* streams slowly: press **Escape** to stop it.
- *"Show me some HTML"* replies with markup that must stay text.`;

const STORY = `## The lighthouse keeper's model

Once upon a time, a lighthouse keeper ran a tiny language model in a browser tab. It had no server, no account and no cloud: just a GPU, a few hundred megabytes of weights, and a list of tools.

Every evening the keeper asked it about the weather. The model wrote a tool call, the page ran it, and the answer came back word by word, like this one does now.

1. First it read the question.
2. Then it decided which tool could help.
3. Finally it wrote its answer, one token at a time.

The keeper liked that nothing left the tab. When the storms came and the network went down, the model still answered, because everything it needed was already there.

*The end.* (You can stop a reply like this one with **Escape** or the Stop button.)`;

const HTML_REPLY = `Markdown is rendered, HTML is not. Here is **bold**, *italic*, \`inline code\` and a [safe link](https://github.com/mlc-ai/web-llm).

\`\`\`html
<p onclick="alert(1)">code blocks stay text</p>
\`\`\`

| Tool | Kind | Try |
|---|---|---|
| \`get_weather\` | run by the agent | *"Weather in Oslo?"* |
| \`get_page_info\` | answered by the page | <img src=x onerror="window.__xss=3"> |

1. Nested lists
   - keep their shape
   - and their order
2. And end

And these must show up as plain text, never run:

- an image: <img src=x onerror="window.__xss=1">
- a script: <script>window.__xss=1</script>
- a [javascript link](javascript:window.__xss=1)
- <a href="javascript:window.__xss=1">a raw anchor</a>
- a Markdown image: ![tracker](https://example.com/pixel.png)`;
