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

const banner = document.getElementById('banner');
const status = document.getElementById('status');

function say(text) {
  banner.textContent = text;
  banner.hidden = false;
}

/** The model's own reason: a ModelLoadError's message would repeat "Could not load". */
function reasonOf(error) {
  return String(error.reason ?? error.message ?? error).replace(/[.\s]+$/, '');
}

async function start() {
  const adapter = await navigator.gpu?.requestAdapter().catch(() => null);
  if (!adapter) {
    say('No WebGPU in this browser: running a scripted fake model instead of a real one.');
    return createAgent({ model: fakeModel(fallbackScript) });
  }
  const id = adapter.features.has('shader-f16') ? 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' : 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
  status.textContent = `Loading ${id}…`;
  // createAgent resolves once the worker runs; the model goes on downloading.
  const agent = await createAgent({
    model: id,
    onProgress: (p) => (status.textContent = p.total ? `Downloading ${id}: ${Math.round((100 * (p.loaded ?? 0)) / p.total)} % of ${Math.round(p.total / 1e6)} MB` : p.text),
  });
  try {
    await agent.ready;
    status.textContent = `${id} is ready.`;
  } catch (error) {
    // On the page, one sentence; in the console, the error itself (its name, fields and stack).
    say(`Could not load ${id}: ${reasonOf(error)}. Running a scripted fake model instead.`);
    console.error(error);
    status.textContent = '';
    // Not the download's progress line: the fake has nothing to download.
    await agent.load(fakeModel(fallbackScript), { onProgress: undefined });
  }
  return agent;
}

// Not even the worker started (a missing script, a CSP without worker-src): say so, and stop here.
const agent = await start().catch((error) => {
  say(`tabagent could not start: ${reasonOf(error)}.`);
  console.error(error);
  return null;
});
const chat = await agent?.newChat({ system: 'You are brief.', tools: [convert, screenSize] });
if (chat) {
  input.disabled = send.disabled = false;
  document.body.dataset.ready = 'true';
}

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
