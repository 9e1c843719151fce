import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { DT_FLOAT, OnnxGraph, readModel, writeModel } from './onnx.js';
import {
  activationTensors,
  calibrationModel,
  channelsLast,
  quantizableConvs,
  quantize,
  quantizeWithRecipe,
  rangeOf,
  type Int8Recipe,
  type Range,
} from './quantize.js';

const DT_INT8 = 3;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pixmill-quantize-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A seeded ±1 generator. */
function noise(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 31 - 1;
  };
}

/** Our nets' shape in small: conv 3→8, residual blocks (conv → Relu → conv, skip add), conv 8→3 added to the input. */
function tinyNet(blocks = 1): Uint8Array {
  const g = new OnnxGraph('tiny');
  const r = noise(3);
  const conv = (x: string, cin: number, cout: number, out: string, scale: number) =>
    g.node(
      'Conv',
      [
        x,
        g.floatInit(
          `${out}.w`,
          [cout, cin, 3, 3],
          Float32Array.from({ length: cout * cin * 9 }, () => r() * scale),
        ),
        g.floatInit(
          `${out}.b`,
          [cout],
          Float32Array.from({ length: cout }, () => r() * 0.1),
        ),
      ],
      [out],
      {
        kernel_shape: [3, 3],
        pads: [1, 1, 1, 1],
      },
    );
  g.input('input', [1, 3, 'h', 'w']);
  const head = conv('input', 3, 8, 'head', 0.3);
  let sum = head;
  for (let k = 0; k < blocks; k++) {
    const n = k ? `${k}` : '';
    const relu = g.node('Relu', [conv(sum, 8, 8, `a${n}`, 0.2)], [`relu${n}`]);
    sum = g.node('Add', [sum, conv(relu, 8, 8, `b${n}`, 0.2)], [`sum${n}`]);
  }
  g.node('Add', ['input', conv(sum, 8, 3, 'tail', 0.2)], ['output']);
  g.output('output', [1, 3, 'h', 'w']);
  return g.encode();
}

const input = (seed: number, n = 16) => {
  const r = noise(seed);
  return new ort.Tensor(
    'float32',
    Float32Array.from({ length: 3 * n * n }, () => r()),
    [1, 3, n, n],
  );
};

/** Runs a model; also returns the op types onnxruntime actually executes (its optimized graph). */
async function run(bytes: Uint8Array, x: ort.Tensor, name: string) {
  const optimized = path.join(tmp, `${name}.onnx`);
  const s = await ort.InferenceSession.create(bytes, {
    graphOptimizationLevel: 'all',
    optimizedModelFilePath: optimized,
    intraOpNumThreads: 1,
  });
  const out = (await s.run({ input: x })).output!.data as Float32Array;
  return { out, ops: readModel(readFileSync(optimized)).graph.node.map((n) => n.opType) };
}

/** Calibrates every quantizable tensor's range (min/max) on a few inputs, larger than the test's so their extremes cover it. */
async function ranges(bytes: Uint8Array): Promise<Record<string, Range>> {
  const model = readModel(bytes);
  const names = activationTensors(model, quantizableConvs(model));
  const s = await ort.InferenceSession.create(writeModel(calibrationModel(model, names)));
  const seen: Record<string, Range> = {};
  for (const seed of [11, 12, 13, 14]) {
    const r = await s.run({ input: input(seed, 48) });
    for (const n of names) {
      const v = rangeOf(r[n]!.data as Float32Array);
      seen[n] = { min: Math.min(v.min, seen[n]?.min ?? 0), max: Math.max(v.max, seen[n]?.max ?? 0) };
    }
  }
  return seen;
}

const maxAbs = (a: Float32Array) => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describe('int8 quantizer', () => {
  const fp32 = tinyNet();

  it('writes int8 weights that onnxruntime runs as integer convolutions, close to fp32 on unseen input', async () => {
    const q = writeModel(quantize(readModel(fp32), { ranges: await ranges(fp32) }));
    const model = readModel(q);
    const weights = model.graph.initializer.filter((t) => t.dims.length === 4);
    expect(weights.map((t) => t.dataType)).toEqual([DT_INT8, DT_INT8, DT_INT8, DT_INT8]);
    expect(weights.every((t) => t.rawData.length === t.dims.reduce((a, b) => a * b))).toBe(true); // one byte a weight
    expect(model.graph.initializer.some((t) => t.dataType === DT_FLOAT && t.dims.length === 4)).toBe(false);

    const x = input(99);
    const ref = await run(fp32, x, 'fp32');
    const int8 = await run(q, x, 'int8');
    expect(int8.ops.filter((o) => o === 'QLinearConv')).toHaveLength(4);
    expect(int8.ops).not.toContain('Conv');
    expect(int8.ops).not.toContain('Relu'); // folded into the quantized output's range
    // 8-bit activations: within 2 % of the output's range everywhere, while fp32 and int8 do differ
    expect(maxDiff(int8.out, ref.out)).toBeLessThan(0.02 * maxAbs(ref.out));
    expect(maxDiff(int8.out, ref.out)).toBeGreaterThan(0);
  });

  it('keeps the named convs float and, with adds, quantizes the residual add', async () => {
    const model = readModel(fp32);
    const [first, , , last] = quantizableConvs(model);
    const q = writeModel(
      quantize(model, { ranges: await ranges(fp32), keepFloat: new Set([first!.name!, last!.name!]), adds: true }),
    );
    const { ops, out } = await run(q, input(5), 'mixed');
    expect(ops.filter((o) => o === 'QLinearConv')).toHaveLength(2);
    expect(ops).toContain('QLinearAdd');
    expect(maxDiff(out, (await run(fp32, input(5), 'fp32b')).out)).toBeLessThan(0.06 * maxAbs(out));
  });

  it('channels-last: the integer convs and the float residual between them run NHWC, with one transpose in and one out, and the same output', async () => {
    const three = tinyNet(3);
    const model = readModel(three);
    const convs = quantizableConvs(model);
    const keepFloat = new Set([convs[0]!.name!, convs[convs.length - 1]!.name!]);
    const qdq = quantize(model, { ranges: await ranges(three), keepFloat });
    const x = input(8, 40);
    const before = await run(writeModel(qdq), x, 'qdq');
    const after = await run(writeModel(channelsLast(qdq)), x, 'nhwc');
    // fused by onnxruntime, the QDQ graph wraps each NHWC integer conv in transposes where the float add reads it
    expect(before.ops.filter((o) => o === 'Transpose').length).toBeGreaterThan(2);
    expect(after.ops.filter((o) => o === 'Transpose').length).toBeLessThanOrEqual(2);
    expect(after.ops.filter((o) => o === 'QLinearConv')).toHaveLength(6);
    expect(maxDiff(after.out, before.out)).toBe(0);
  });

  it('builds from a recipe only for the exact file it was calibrated on', async () => {
    const r = await ranges(fp32);
    const recipe: Int8Recipe = {
      net: 'tiny.onnx',
      sha256: 'f'.repeat(64),
      activations: 'uint8',
      adds: false,
      keepFloat: [],
      ranges: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [v.min, v.max]])),
      calibration: {},
    };
    expect(() => quantizeWithRecipe(fp32, recipe)).toThrow(/not the file its int8 ranges were measured on/);
    const { createHash } = await import('node:crypto');
    recipe.sha256 = createHash('sha256').update(fp32).digest('hex');
    expect(
      readModel(quantizeWithRecipe(fp32, recipe)).graph.initializer.filter(
        (t) => t.dataType === DT_INT8 && t.dims.length === 4,
      ),
    ).toHaveLength(4);
  });

  it("'mse' ranges clip a long-tailed distribution's rare extremes, which min/max stretches the 8-bit step for", () => {
    const r = noise(8);
    const v = Float32Array.from({ length: 50_000 }, () => Math.sign(r()) * -Math.log(Math.abs(r()) + 1e-9) * 0.02); // Laplacian
    const all = rangeOf(v);
    const mse = rangeOf(v, 'mse');
    expect(mse.max).toBeLessThan(all.max * 0.95);
    expect(mse.min).toBeGreaterThan(all.min * 0.95);
    expect(mse.min).toBeLessThan(0);
    const err = ({ min, max }: Range) => {
      const scale = (max - min) / 255,
        zp = Math.round(-min / scale);
      return v.reduce(
        (e, x) => e + ((Math.min(255, Math.max(0, Math.round(x / scale) + zp)) - zp) * scale - x) ** 2,
        0,
      );
    };
    expect(err(mse)).toBeLessThan(err(all));
  });
});
