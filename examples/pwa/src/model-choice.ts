// Which model this device should run, decided before any download: WebLLM's
// on WebGPU; without it, a GGUF on the CPU (wllama), where this browser can
// run wllama.
import { listModels } from '../../../src/index.js';

/** Small enough to download once and keep; Qwen2.5 writes Hermes-style tool calls. */
const MODEL_F16 = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const MODEL_F32 = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
/** The CPU's model: the smallest curated GGUF that calls tools, from the same family. */
export const CPU_MODEL = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';

export type ModelChoice =
  /** WebGPU runs WebLLM's build for this GPU (f16 where the adapter has shader-f16). */
  | { engine: 'webllm'; modelId: string }
  /**
   * No WebGPU, but wllama runs: a curated GGUF already downloaded (it starts
   * offline too), else CPU_MODEL, to download when the person says so.
   */
  | { engine: 'wllama'; modelId: string; downloaded: boolean; noGpu: string }
  /** Neither: only the scripted fake runs here. */
  | { engine: 'fake'; noGpu: string };

interface MinimalGpu {
  requestAdapter(): Promise<{ features: ReadonlySet<string> } | null>;
}

export async function chooseModel(): Promise<ModelChoice> {
  const gpu = (navigator as Navigator & { gpu?: MinimalGpu }).gpu;
  const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
  // f16 weights are smaller and faster, but only adapters with shader-f16 can run them.
  if (adapter) return { engine: 'webllm', modelId: adapter.features.has('shader-f16') ? MODEL_F16 : MODEL_F32 };
  const noGpu = gpu ? 'no GPU adapter is available' : 'navigator.gpu is missing';
  // From the page: the curated list, wllama's cache and this browser's features; no worker, no network.
  const cpu = (await listModels({ engines: ['wllama'] }).catch(() => [])).filter((m) => m.runnable);
  if (cpu.length === 0) return { engine: 'fake', noGpu };
  const downloaded = cpu.find((m) => m.id === CPU_MODEL && m.cached) ?? cpu.find((m) => m.cached);
  return { engine: 'wllama', modelId: downloaded?.id ?? CPU_MODEL, downloaded: downloaded !== undefined, noGpu };
}
