/**
 * Which onnxruntime-web execution provider runs the on-device models: WebGPU when the browser gives a
 * WebGPU adapter, WASM (SIMD, threads when cross-origin isolated) otherwise — with the reason kept, so
 * the UI, the logs and the bench can say why a device ran on WASM.
 */

export type ExecutionProvider = 'webgpu' | 'wasm';

export interface ProviderChoice {
  provider: ExecutionProvider;
  /** why: the adapter's description for WebGPU, the missing piece for WASM */
  reason: string;
}

/** The part of `navigator.gpu` this choice needs (structural, so it is testable without a browser). */
export interface GpuLike {
  requestAdapter(options?: {
    powerPreference?: 'high-performance' | 'low-power';
  }): Promise<{ info?: { vendor?: string; architecture?: string } } | null>;
}

export async function chooseProvider(gpu: GpuLike | undefined): Promise<ProviderChoice> {
  if (!gpu) return { provider: 'wasm', reason: 'no WebGPU in this browser (navigator.gpu missing)' };
  let adapter: Awaited<ReturnType<GpuLike['requestAdapter']>>;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return { provider: 'wasm', reason: `WebGPU adapter request failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!adapter) return { provider: 'wasm', reason: 'WebGPU gave no adapter (GPU off or blocklisted)' };
  const name = [adapter.info?.vendor, adapter.info?.architecture].filter(Boolean).join(' ') || 'unnamed adapter';
  return { provider: 'webgpu', reason: `WebGPU adapter: ${name}` };
}

/** After a failed WebGPU session the device goes on with WASM; the reason says what failed. */
export function fallBack(from: ProviderChoice, error: unknown): ProviderChoice {
  return {
    provider: 'wasm',
    reason: `WebGPU session failed (${error instanceof Error ? error.message : String(error)}); ${from.reason}`,
  };
}
