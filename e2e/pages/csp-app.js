// Runs a managed tool round trip and reports on the page (no inline script: the CSP forbids it).
const status = document.getElementById('status');
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
const { createAgent, tool, z } = window.TabAgent;
const { fakeModel, toolCallText } = window.TabAgentTesting;
try {
  const started = performance.now();
  const agent = await createAgent({
    model: fakeModel([toolCallText('double', { n: 21 }), 'It is 42.']),
    startTimeoutMs: 5000,
  }).catch((error) => {
    status.dataset.ms = String(Math.round(performance.now() - started));
    throw error;
  });
  const double = tool({ name: 'double', description: 'Double a number', input: z.object({ n: z.number() }), run: ({ n }) => n * 2 });
  const chat = await agent.newChat({ tools: [double] });
  const reply = await chat.send('Double 21');
  status.textContent = `ok: ${reply.text}`;
} catch (error) {
  status.textContent = `error: ${error.name}: ${error.message}`;
}
status.dataset.violations = violations.join('\n');
status.dataset.done = 'true';
