// Whether this browser's WebGPU can run a model, asked of an adapter (no
// device), with the checks WebLLM 0.2.86 makes when it loads one.

/** `navigator.gpu` as this module uses it. */
export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<GpuAdapterLike | null>;
}
export interface GpuAdapterLike {
  readonly features: ReadonlySet<string>;
  readonly limits?: { readonly [limit: string]: unknown };
}

/**
 * WebLLM's detectGPUDevice refuses any model on an adapter below these
 * limits (it asks for more where the adapter has it, and falls back to these).
 */
const WEBLLM_MIN_LIMITS: Record<string, number> = {
  maxBufferSize: 1 << 28,
  maxStorageBufferBindingSize: 1 << 27,
  maxComputeWorkgroupStorageSize: 32 << 10,
  maxStorageBuffersPerShaderStage: 10,
};

/**
 * The features of the adapter WebLLM would get (it asks for a high-performance
 * one), or null when WebLLM could run no model here: no WebGPU, no adapter,
 * or an adapter below WebLLM's limits.
 */
export async function gpuFeatures(gpu: GpuLike | null | undefined): Promise<ReadonlySet<string> | null> {
  if (!gpu) return null;
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
  if (!adapter) return null;
  const short = Object.entries(WEBLLM_MIN_LIMITS).some(([limit, min]) => {
    const value = adapter.limits?.[limit];
    return typeof value === 'number' && value < min;
  });
  return short ? null : adapter.features;
}

/** The browser's own WebGPU entry point, when it has one. */
export function browserGpu(): GpuLike | undefined {
  return typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { gpu?: GpuLike }).gpu;
}
