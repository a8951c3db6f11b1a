// The page for e2e/prompt-api.spec.ts: tabagent, and the strict Prompt API
// stand-in (src/test-support/prompt-api-stand-in.ts) to put in the page's
// `LanguageModel` before the app starts its model. Its model is scripted, or
// real llama.cpp: wllama called directly (not through tabagent) on the tiny
// GGUF, each reply under llama.cpp's own JSON-schema grammar (wllama's
// `response_format: { type: 'json_schema' }`, converted by llama.cpp's
// json-schema-to-grammar inside its WebAssembly).
import { Wllama } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { z } from 'zod';
import * as tabagent from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import { promptApiStandIn, type StandInModel, type StandInOptions } from '../../src/test-support/prompt-api-stand-in.js';

const promptApi = {
  /** Put the stand-in where Chrome puts `LanguageModel`. */
  install(options: StandInOptions) {
    const standIn = promptApiStandIn(options);
    (globalThis as { LanguageModel?: unknown }).LanguageModel = standIn;
    return standIn;
  },
  /** A model that replies with `replies` in turn, each streamed a few characters at a time. */
  scripted(replies: string[], chunk = 4): StandInModel {
    return async function* ({ signal }) {
      const reply = replies.shift();
      if (reply === undefined) throw new Error('The script has no reply left.');
      for (let i = 0; i < reply.length; i += chunk) {
        await new Promise((r) => setTimeout(r, 5));
        signal.throwIfAborted();
        yield reply.slice(i, i + chunk);
      }
    };
  },
  /** A model that is real llama.cpp on the GGUF at `url`, its replies held to the responseConstraint by llama.cpp's grammar. */
  async llamaCpp(url: string, maxTokens = 96): Promise<StandInModel> {
    const wllama = new Wllama({ default: wasmUrl });
    const blob = await (await fetch(url)).blob();
    await wllama.loadModel([blob], { n_ctx: 2048, n_threads: 1, n_gpu_layers: 0, n_parallel: 1 });
    return async function* ({ context, responseConstraint, signal }) {
      const stream = await wllama.createChatCompletion({
        messages: context.map(({ role, content }) => ({ role, content })),
        stream: true,
        max_tokens: maxTokens,
        temperature: 0,
        abortSignal: signal,
        chat_template_kwargs: { enable_thinking: false },
        ...(responseConstraint ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'reply', schema: responseConstraint, strict: true } } } : {}),
      });
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta?.content;
        if (delta) yield delta;
      }
    };
  },
};

declare global {
  interface Window {
    promptApi: typeof promptApi;
  }
}
// As the main harness page has it (main.ts), and the stand-in beside it.
window.tabagent = { ...tabagent, ...testing, z };
window.promptApi = promptApi;
window.providers = { openaiCompatible: () => import('@ai-sdk/openai-compatible') };
document.getElementById('status')!.textContent = 'ready';
