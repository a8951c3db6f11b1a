// Which model the panel runs: the person's setting if there is one (kept in
// chrome.storage.local), else WebLLM's Qwen2.5 1.5B on WebGPU with a GGUF of
// Qwen2.5 0.5B on the CPU (wllama) where WebGPU is missing.
import type { AgentOptions } from '../../../src/index.js';

const SETTING = 'model';
const CPU_MODEL = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';

interface MinimalGpu {
  requestAdapter(): Promise<{ features: ReadonlySet<string> } | null>;
}

export async function readModelSetting(): Promise<string> {
  const value = (await chrome.storage.local.get(SETTING))[SETTING];
  return typeof value === 'string' ? value.trim() : '';
}

export function saveModelSetting(value: string): Promise<void> {
  return chrome.storage.local.set({ [SETTING]: value.trim() });
}

export async function chooseModel(): Promise<Pick<AgentOptions, 'model' | 'fallback'>> {
  const setting = await readModelSetting();
  if (/^https?:\/\//.test(setting)) return { model: { gguf: setting } };
  if (setting) return { model: setting };
  const gpu = (navigator as Navigator & { gpu?: MinimalGpu }).gpu;
  const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
  // f16 weights are smaller and faster, but only adapters with shader-f16 run them; without WebGPU the fallback runs.
  const model = adapter?.features.has('shader-f16') === false ? 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' : 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
  return { model, fallback: CPU_MODEL };
}
