// The conversation template a model's own mlc-chat-config.json names wins
// over tabagent's model table, through the real worker path (ModelSession,
// WorkerConnection, comlink, the engine host, the strict fake standing for
// WebLLM: a fake's `template` is the conv_template its config names, which
// it renders prompts with as WebLLM would). The prompts checked are the MLC
// templates' own text (mlc-ai/mlc-llm python/mlc_llm/conversation_template),
// and the calls the models' own formats: Hermes (NousResearch
// Hermes-Function-Calling: `<tool_call>` JSON `</tool_call>`) and Qwen3.5
// (its chat template: `<function=…><parameter=…>`).
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, type ModelWarning } from './agent.js';
import { AgentModel } from '../model/agent-model.js';
import { ModelSession } from '../model/model-session.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import { TabSync } from '../store/tab-sync.js';
import { fakeModel, type FakeModel } from '../testing/fake-model.js';
import type { FakeScript } from '../testing/types.js';
import { tool } from '../tools/define-tool.js';
import { EngineHost } from '../worker/engine-host.js';
import { inThreadWorkers } from '../test-support/in-thread-workers.js';

const LLAMA_32 = 'Llama-3.2-1B-Instruct-q4f16_1-MLC';
const QWEN3 = 'Qwen3-0.6B-q4f16_1-MLC';

/** Each "worker" runs the real engine host in this thread. */
const { launch } = inThreadWorkers(() => new EngineHost());

/** An agent with no model yet, its warnings recorded from the start; then `model` is loaded. */
async function agentWith(model: FakeModel) {
  const slot = new AgentModel((options, signal) => ModelSession.begin(options, launch, signal));
  const agent = new Agent(slot, {}, { kind: 'memory' }, new MemoryChatStore(), new TabSync(`test-${Math.random()}`, false));
  const warnings: ModelWarning[] = [];
  agent.on('model-warning', (warning) => warnings.push(warning));
  await agent.load(model);
  return { agent, warnings };
}

const add = (run = vi.fn(({ a, b }: { a: number; b: number }) => a + b)) => ({ ...tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run }), spy: run });

function fake(script: FakeScript, modelId: string, template?: string, family?: 'llama') {
  return fakeModel(script, { modelId, ...(template ? { template } : {}), ...(family ? { family } : {}) });
}

describe("a model whose mlc-chat-config.json names another template than tabagent's table", () => {
  // Llama 3.2's row (llama-3_1, Llama's own call format) is inferred; say its config named llama-3,
  // which has no tool role and which only models told the Hermes format use.
  it('is run with the config’s template, its tools in the format that fits that template', async () => {
    const hermesCall = '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>';
    const model = fake([hermesCall, 'It is 3.'], LLAMA_32, 'llama-3');
    const { agent } = await agentWith(model);
    const sum = add();
    const chat = await agent.newChat({ tools: [sum] });
    const reply = await chat.send('What is 1 + 2?');

    expect(sum.spy).toHaveBeenCalledWith({ a: 1, b: 2 }, expect.anything());
    expect(reply.text).toBe('It is 3.');
    const [first, second] = model.requests;
    // Hermes's instructions in the system prompt, told in llama-3's system header.
    expect(first!.prompt).toMatch(/^<\|start_header_id\|>system<\|end_header_id\|>\n\n[^]*<tool_call>/);
    // llama-3 has no tool role (llama-3_1's is `ipython`): the result comes back as the user's turn.
    expect(second!.prompt).not.toContain('ipython');
    expect(second!.prompt).toContain(`${hermesCall}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n<tool_response>`);
    expect(second!.prompt.endsWith('<|start_header_id|>assistant<|end_header_id|>\n\n')).toBe(true);
  });

  it('agent.model reports the template and family in use and what the table said; one warning says the same', async () => {
    const { agent, warnings } = await agentWith(fake(['hi'], LLAMA_32, 'llama-3'));
    const both = { config: 'llama-3', known: true, table: { template: 'llama-3_1', family: 'llama' }, used: { template: 'llama-3', family: 'hermes' } };
    expect(agent.model).toMatchObject({ modelId: LLAMA_32, template: 'llama-3', family: 'hermes', templateMismatch: both });
    expect(warnings).toEqual([{ type: 'template-mismatch', modelId: LLAMA_32, message: expect.stringMatching(/llama-3\b.*llama-3_1|llama-3_1.*llama-3\b/), ...both }]);
    // A new worker for the same model is the same model: no second warning.
    await agent.restart();
    expect(warnings).toHaveLength(1);
    // Another model is warned of afresh.
    await agent.restart({ model: fake(['hi'], QWEN3, 'qwen3_5') });
    expect(warnings.map((w) => [w.modelId, w.type === 'template-mismatch' && w.config])).toEqual([[LLAMA_32, 'llama-3'], [QWEN3, 'qwen3_5']]);
  });

  it('takes the family the config’s template implies when only one family uses it natively (qwen3_5 → Qwen3.5’s call format)', async () => {
    const qwen35Call = '<tool_call>\n<function=add>\n<parameter=a>\n2\n</parameter>\n<parameter=b>\n5\n</parameter>\n</function>\n</tool_call>';
    const model = fake([`Adding.\n</think>\n\n${qwen35Call}`, 'Summed.\n</think>\n\nSeven.'], QWEN3, 'qwen3_5');
    const { agent, warnings } = await agentWith(model);
    const sum = add();
    const chat = await agent.newChat({ tools: [sum] });
    const reply = await chat.send('2 + 5?');

    expect(sum.spy).toHaveBeenCalledWith({ a: 2, b: 5 }, expect.anything());
    expect(reply.steps[0]!.reasoning).toBe('Adding.');
    expect(reply.text).toBe('Seven.');
    // qwen3_5's reply header opens the think block.
    expect(model.requests[0]!.prompt.endsWith('<|im_start|>assistant\n<think>\n')).toBe(true);
    expect(agent.model).toMatchObject({ template: 'qwen3_5', family: 'qwen3.5' });
    expect(warnings).toEqual([expect.objectContaining({ config: 'qwen3_5', table: { template: 'qwen2', family: 'qwen3' }, used: { template: 'qwen3_5', family: 'qwen3.5' } })]);
  });

  it('keeps the family the app named, and still warns of the template', async () => {
    const { agent, warnings } = await agentWith(fake(['hi'], LLAMA_32, 'llama-3', 'llama'));
    expect(agent.model).toMatchObject({ template: 'llama-3', family: 'llama' });
    expect(warnings).toEqual([expect.objectContaining({ config: 'llama-3', used: { template: 'llama-3', family: 'llama' } })]);
  });
});

describe('a model whose config names the template the table gives', () => {
  it('loads with no warning and nothing to report', async () => {
    const { agent, warnings } = await agentWith(fake(['hi'], LLAMA_32, 'llama-3_1'));
    expect(agent.model).toMatchObject({ template: 'llama-3_1', family: 'llama' });
    expect(agent.model.templateMismatch).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});

describe('a model the table does not know', () => {
  it('takes template and family from its config, with no warning: there is no table entry to differ from', async () => {
    const { agent, warnings } = await agentWith(fake(['hi'], 'my-llama-finetune', 'llama-3_1'));
    expect(agent.model).toMatchObject({ template: 'llama-3_1', family: 'llama' });
    expect(agent.model.templateMismatch).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});
