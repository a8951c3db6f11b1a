// A plain page using the TabAgent global: one managed tool (run by the loop)
// and one raw tool (answered by this page). No bundler, no inline script, so
// it runs under a strict Content-Security-Policy.
const { createAgent, tool, rawTool, z } = window.TabAgent;
// The fake model, for browsers without WebGPU: test code, in its own script.
const { fakeModel, toolCallText } = window.TabAgentTesting;

const log = document.getElementById('log');
const input = document.getElementById('input');
const send = document.getElementById('send');

function show(kind, text) {
  const li = document.createElement('li');
  li.className = kind;
  li.textContent = text; // model output is text, never HTML
  log.append(li);
}

const convert = tool({
  name: 'convert_length',
  description: 'Convert a length between km and miles',
  input: z.object({ value: z.number(), from: z.enum(['km', 'mi']) }),
  run: ({ value, from }) => (from === 'km' ? { miles: +(value / 1.609344).toFixed(3) } : { km: +(value * 1.609344).toFixed(3) }),
});

const screenSize = rawTool({
  name: 'get_screen_size',
  description: "The size of the user's screen in CSS pixels",
  parameters: { type: 'object', properties: {} },
});

// Without WebGPU, a scripted stand-in so the page still shows the tool loop.
function fallbackScript(request) {
  if (request.last.includes('<tool_response>')) return `(fake model) Result: ${request.last.split('\n')[1]}`;
  const km = /([\d.]+)\s*km/i.exec(request.last);
  if (km) return toolCallText('convert_length', { value: Number(km[1]), from: 'km' });
  if (/screen/i.test(request.last)) return toolCallText('get_screen_size');
  return '(fake model) Ask me to convert kilometres, or about your screen size.';
}

async function start() {
  const adapter = await navigator.gpu?.requestAdapter().catch(() => null);
  if (adapter) {
    const id = adapter.features.has('shader-f16') ? 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' : 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
    return createAgent({ model: id, onProgress: (p) => (input.placeholder = p.text) });
  }
  const banner = document.getElementById('banner');
  banner.textContent = 'No WebGPU in this browser: running a scripted fake model instead of a real one.';
  banner.hidden = false;
  return createAgent({ model: fakeModel(fallbackScript) });
}

const agent = await start();
const chat = await agent.newChat({ system: 'You are brief.', tools: [convert, screenSize] });
input.disabled = send.disabled = false;
document.body.dataset.ready = 'true';

document.getElementById('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  show('you', text);
  try {
    let reply = await chat.send(text);
    while (reply.toolCalls.length) {
      const call = reply.toolCalls[0];
      show('tool', `${call.name} → answered by the page`);
      reply = await chat.sendToolResult(call.id, { width: screen.width, height: screen.height });
    }
    show('model', reply.text);
  } catch (error) {
    show('error', `${error.name}: ${error.message}`);
  }
});
