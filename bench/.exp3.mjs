import { chromium } from 'playwright';
import { spawn } from 'node:child_process';
const server = spawn('node', ['e2e/support/static-server.mjs', '--port', '4291', '--root', 'dist/e2e'], { cwd: '/work/main', stdio: 'ignore', detached: true });
await new Promise(r => setTimeout(r, 800));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  await page.goto('http://127.0.0.1:4291/');
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
  const r = await page.evaluate(async () => {
    const { createAgent, tool, z } = window.tabagent;
    const bytes = await (await fetch('/models/tiny-qwen3.gguf')).arrayBuffer();
    const agent = await createAgent({ model: { gguf: new Blob([bytes]), id: 'tiny', contextSize: 1024, threads: 1 }, storage: false });
    await agent.ready;
    const out = [];
    const tools = {
      ping: tool({ name: 'ping', description: 'Ping', input: z.object({}), run: () => 'pong' }),
      weather: tool({ name: 'get_weather', description: 'Weather for a city', input: z.object({ city: z.enum(['Paris', 'Tokyo']), metric: z.boolean() }), run: () => ({ temp: 21 }) }),
    };
    for (const name of ['ping', 'weather', 'ping', 'weather']) {
      const t = tools[name];
      const chat = await agent.newChat({ system: 'You are helpful.', tools: [t], generation: { thinking: false } });
      const ev = [];
      const t0 = performance.now();
      chat.on('model-start', (e) => ev.push(['start', e.step, performance.now() - t0]));
      chat.on('model-end', (e) => ev.push(['end', e.step, performance.now() - t0, e.promptTokens, e.completionTokens]));
      const reply = await chat.send('Weather in Paris?', { prepareStep: ({ steps }) => (steps.length === 0 ? { toolChoice: { name: t.name } } : { toolChoice: 'none', generation: { thinking: false, maxTokens: 1 } }) });
      out.push({ name, ev, raws: chat.messages.filter(m => m.role === 'assistant').map(m => m.raw), usage: reply.steps.map(s => s.usage) });
    }
    agent.close();
    return out;
  });
  console.log(JSON.stringify(r, null, 0).replaceAll('},{', '},\n{'));
} finally { await browser.close(); process.kill(-server.pid); }
