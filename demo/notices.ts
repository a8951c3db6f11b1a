// What the banner says, and the status line's words for where the model stands.
import type { ModelInfo } from '../src/index.js';
import type { ModelChoice } from './models.js';
import type { BannerContent } from './ui/banner.js';

/**
 * No WebGPU: the GPU models cannot run. Where wllama can (`cpuRuns`), the CPU
 * models are the way to a real model, so the notice says so and opens the
 * picker (`choose`); else only the scripted models run here.
 */
export function noWebGpuNotice(reason: string | undefined, cpuRuns: boolean, choose: () => void): BannerContent {
  const more = {
    summary: 'Where does WebGPU work?',
    text:
      'In recent Chrome and Edge on Windows, macOS and ChromeOS, Chrome on recent Android phones, recent Safari, and recent Firefox on Windows. ' +
      'Elsewhere it may be behind a flag: chrome://flags, or Chrome started with --enable-unsafe-webgpu. ' +
      `Here: ${reason ?? 'no WebGPU adapter'}.`,
  };
  if (!cpuRuns) return { text: 'No WebGPU in this browser, so real models cannot run here: you are chatting with a scripted fake model.', more };
  return {
    text: 'No WebGPU in this browser: CPU models run here, GPU models cannot. A scripted fake model answers until you choose one.',
    more,
    action: { label: 'Choose a CPU model', run: choose },
  };
}

/** Why the picker's GPU group cannot run, given what else can. */
export function noGpuNote(cpuRuns: boolean): string {
  return cpuRuns ? 'This browser has no WebGPU, so these cannot run here: the CPU models can.' : 'This browser has no WebGPU, so only the scripted models run here.';
}

/** "on WebGPU (WebLLM)", "on the CPU (wllama, 1 thread)", "scripted fake": what runs the loaded model. */
export function engineText({ engine, threads }: Pick<ModelInfo, 'engine' | 'threads'>): string {
  if (engine === 'webllm') return 'on WebGPU (WebLLM)';
  if (engine === 'wllama') return `on the CPU (wllama, ${threads ?? 1} thread${threads === undefined || threads === 1 ? '' : 's'})`;
  return 'scripted fake';
}

/** The status line once a model runs: "Qwen3-0.6B-Q8_0-GGUF · on the CPU (wllama, 1 thread) · qwen3 tool calls". */
export function readyStatus(info: ModelInfo): string {
  return `${info.modelId} · ${engineText(info)} · ${info.family} tool calls`;
}

/** The status line while a model loads; the threads are known only once it runs. */
export function loadingStatus(choice: ModelChoice): string {
  const where = choice.kind === 'webllm' ? ' on WebGPU (WebLLM)' : choice.kind === 'gguf' ? ' on the CPU (wllama)' : '';
  return `loading ${choice.label}${where}…`;
}
