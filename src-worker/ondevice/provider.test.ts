import { describe, expect, it } from 'vitest';
import { chooseProvider, fallBack, type GpuLike } from './provider.js';

const gpu = (adapter: Awaited<ReturnType<GpuLike['requestAdapter']>> | Error): GpuLike => ({
  requestAdapter: async () => {
    if (adapter instanceof Error) throw adapter;
    return adapter;
  },
});

describe('chooseProvider', () => {
  it('takes WebGPU when an adapter is given, naming it', async () => {
    const c = await chooseProvider(gpu({ info: { vendor: 'google', architecture: 'swiftshader' } }));
    expect(c).toEqual({ provider: 'webgpu', reason: 'WebGPU adapter: google swiftshader' });
  });

  it('falls back to WASM without navigator.gpu', async () => {
    const c = await chooseProvider(undefined);
    expect(c.provider).toBe('wasm');
    expect(c.reason).toMatch(/navigator\.gpu missing/);
  });

  it('falls back to WASM when the browser has WebGPU but no adapter', async () => {
    const c = await chooseProvider(gpu(null));
    expect(c.provider).toBe('wasm');
    expect(c.reason).toMatch(/no adapter/);
  });

  it('falls back to WASM when the adapter request throws, with its message', async () => {
    const c = await chooseProvider(gpu(new Error('device lost')));
    expect(c).toEqual({ provider: 'wasm', reason: 'WebGPU adapter request failed: device lost' });
  });

  it('an adapter without info still counts', async () => {
    expect(await chooseProvider(gpu({}))).toEqual({ provider: 'webgpu', reason: 'WebGPU adapter: unnamed adapter' });
  });

  it('a failed WebGPU session goes on with WASM and says why', () => {
    const c = fallBack({ provider: 'webgpu', reason: 'WebGPU adapter: x' }, new Error('unsupported op'));
    expect(c.provider).toBe('wasm');
    expect(c.reason).toContain('unsupported op');
  });
});
