// A GGUF on the CPU under the page's Content-Security-Policy (set by the test);
// the model's URL comes in the hash. Reports on the page: no inline script.
const status = document.getElementById('status');
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
const { createAgent } = window.TabAgent;
try {
  const agent = await createAgent({ model: { gguf: decodeURIComponent(location.hash.slice(1)), contextSize: 512 }, storage: false });
  const info = await agent.ready;
  const chat = await agent.newChat({ generation: { maxTokens: 4 } });
  await chat.send('Hello');
  status.textContent = `ok: ${info.engine}`;
} catch (error) {
  status.textContent = `error: ${error.name}: ${error.message}`;
  status.dataset.retryable = String(error.retryable);
}
status.dataset.violations = violations.join('\n');
status.dataset.done = 'true';
