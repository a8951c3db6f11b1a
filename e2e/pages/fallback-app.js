// A WebLLM model with a GGUF fallback, as a script-tag page asks for it.
const status = document.getElementById('status');
const { createAgent } = window.TabAgent;
try {
  const agent = await createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', fallback: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', storage: false });
  const info = await agent.ready;
  const chat = await agent.newChat({ generation: { maxTokens: 4 } });
  const reply = await chat.send('Hello');
  status.textContent = `ok: ${info.engine} ${info.modelId} ${reply.steps.length} step`;
} catch (error) {
  status.textContent = `error: ${error.name}: ${error.message}`;
}
