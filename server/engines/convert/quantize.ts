/**
 * Static int8 quantization of our own conv nets in ONNX's QDQ form, which onnxruntime's CPU provider
 * fuses into integer kernels (QLinearConv: u8 activations × s8 weights, VNNI where the CPU has it):
 *  - weights per output channel, symmetric int8 (scale = max |w| / 127, zero point 0, axis 0);
 *  - the bias int32 at scale = input scale × weight scale, as QLinearConv takes it;
 *  - activations (each quantized conv's input and output, or the output of the Relu that follows it,
 *    which onnxruntime then drops) asymmetric uint8 or int8 over ranges measured beforehand on
 *    calibration inputs (`calibrationModel` + `rangeOf`).
 * Every other node (adds, pixel shuffles, the convs left in float) keeps computing in float on the
 * dequantized tensors, so the residual stream between blocks stays float. `channelsLast` then writes the
 * quantized convs as onnxruntime's NHWC integer convs, so no layout transposes run between the layers.
 */
import { createHash } from 'node:crypto';
import { DT_FLOAT, DT_INT32, readModel, writeModel, type ModelNode, type ModelTensor, type OnnxModel } from './onnx.js';

const DT_UINT8 = 2;
const DT_INT8 = 3;

export interface Range {
  min: number;
  max: number;
}

export interface QuantizeOptions {
  /** Float range of each activation tensor named by `activationTensors`. */
  ranges: Readonly<Record<string, Range>>;
  /** Names of convs (from `quantizableConvs`) that stay float. */
  keepFloat?: ReadonlySet<string>;
  /** Activation type: uint8 (u8s8, the fast path of onnxruntime's x86 kernels) or int8. */
  activations?: 'uint8' | 'int8';
  /** Also quantize the Adds whose inputs are both quantized (onnxruntime: QLinearAdd), so the residual stream stays 8-bit. */
  adds?: boolean;
}

const attrInt = (n: ModelNode, name: string, dflt: number) =>
  Number(n.attribute?.find((a) => a.name === name)?.i ?? dflt);

/** Every node gets a name (some exporters leave it empty): the options refer to convs by name. */
function named(model: OnnxModel): OnnxModel {
  model.graph.node.forEach((n, k) => (n.name ||= `${n.opType}_${k}`));
  return model;
}

/**
 * Convs onnxruntime can run as QLinearConv: plain (group 1) convs whose weights are float initializers
 * and whose (Relu's) output is not a graph output (which stays float, and QLinearConv's is 8-bit).
 */
export function quantizableConvs(model: OnnxModel): ModelNode[] {
  const inits = new Map(model.graph.initializer.map((t) => [t.name, t]));
  const readers = consumers(model);
  const outs = new Set(model.graph.output.map((o) => (o as { name: string }).name));
  return named(model).graph.node.filter((n) => {
    if (n.opType !== 'Conv' || attrInt(n, 'group', 1) !== 1 || outs.has(quantizedOutput(n, readers, outs).name))
      return false;
    const w = inits.get(n.input[1]!);
    const b = n.input[2] ? inits.get(n.input[2]) : undefined;
    return w?.dataType === DT_FLOAT && w.dims.length === 4 && (!n.input[2] || b?.dataType === DT_FLOAT);
  });
}

/** Who reads each tensor. */
function consumers(model: OnnxModel): Map<string, ModelNode[]> {
  const m = new Map<string, ModelNode[]>();
  for (const n of model.graph.node) for (const i of n.input) if (i) m.set(i, [...(m.get(i) ?? []), n]);
  return m;
}

/** The tensor a conv's output is quantized at: the following Relu's output when the Relu is its only reader. */
function quantizedOutput(
  conv: ModelNode,
  readers: Map<string, ModelNode[]>,
  graphOutputs: Set<string>,
): { name: string; relu: boolean } {
  const out = conv.output[0]!;
  const r = readers.get(out) ?? [];
  if (r.length === 1 && r[0]!.opType === 'Relu' && !graphOutputs.has(out))
    return { name: r[0]!.output[0]!, relu: true };
  return { name: out, relu: false };
}

/** The activation tensors whose ranges `quantize` needs for these convs (their inputs and quantized outputs, and the Adds' outputs). */
export function activationTensors(model: OnnxModel, convs: readonly ModelNode[]): string[] {
  const readers = consumers(model);
  const outs = new Set(model.graph.output.map((o) => (o as { name: string }).name));
  const names = new Set<string>();
  for (const c of convs) {
    names.add(c.input[0]!);
    names.add(quantizedOutput(c, readers, outs).name);
  }
  for (const n of model.graph.node) if (n.opType === 'Add' && !outs.has(n.output[0]!)) names.add(n.output[0]!);
  return [...names];
}

/** A copy of the model that also returns these tensors, for measuring their ranges on calibration inputs. */
export function calibrationModel(model: OnnxModel, tensors: readonly string[]): OnnxModel {
  const copy = structuredClone(model);
  const have = new Set(copy.graph.output.map((o) => (o as { name: string }).name));
  for (const name of tensors)
    if (!have.has(name)) copy.graph.output.push({ name, type: { tensorType: { elemType: DT_FLOAT } } });
  return copy;
}

/**
 * A tensor's quantization range from calibration samples, always including 0 (zero must be exact:
 * padding and Relu): 'minmax' keeps every sample in range; 'mse' narrows min and max together to the
 * fraction (of 40 tried, 1 down to 0.3) whose 8-bit rounding and clipping lose the least squared
 * error over the samples.
 */
export function rangeOf(samples: Float32Array, method: 'minmax' | 'mse' = 'minmax'): Range {
  let lo = 0,
    hi = 0;
  for (const v of samples) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (method === 'minmax') return { min: lo, max: hi };
  let best = { min: lo, max: hi },
    bestErr = Infinity;
  for (let k = 0; k < 40; k++) {
    const f = 1 - (0.7 * k) / 39;
    const r = { min: lo * f, max: hi * f };
    const { scale, zp } = actParams(r, 'uint8');
    let err = 0;
    for (const v of samples) {
      const q = Math.min(255, Math.max(0, Math.round(v / scale) + zp));
      err += ((q - zp) * scale - v) ** 2;
    }
    if (err < bestErr) [best, bestErr] = [r, err];
  }
  return best;
}

/** Scale and zero point of an activation range for the chosen type. */
function actParams(r: Range, kind: 'uint8' | 'int8'): { scale: number; zp: number } {
  const [qmin, qmax] = kind === 'uint8' ? [0, 255] : [-128, 127];
  const min = Math.min(0, r.min),
    max = Math.max(0, r.max);
  const scale = max > min ? (max - min) / (qmax - qmin) : 1;
  const zp = Math.min(qmax, Math.max(qmin, Math.round(qmin - min / scale)));
  return { scale, zp };
}

const f32 = (t: ModelTensor) =>
  new Float32Array(t.rawData.buffer.slice(t.rawData.byteOffset, t.rawData.byteOffset + t.rawData.byteLength));
const bytesOf = (a: Float32Array | Int32Array | Int8Array | Uint8Array) =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const tensor = (
  name: string,
  dims: number[],
  dataType: number,
  data: Float32Array | Int32Array | Int8Array | Uint8Array,
): ModelTensor => ({ name, dims, dataType, rawData: Uint8Array.from(bytesOf(data)) });

/** Per-output-channel symmetric int8 weights of an OIHW (or any axis-0-major) tensor. */
function quantizeWeights(w: Float32Array, channels: number): { q: Int8Array; scales: Float32Array } {
  const per = w.length / channels;
  const q = new Int8Array(w.length);
  const scales = new Float32Array(channels);
  for (let c = 0; c < channels; c++) {
    let m = 0;
    for (let k = c * per; k < (c + 1) * per; k++) m = Math.max(m, Math.abs(w[k]!));
    const s = m > 0 ? m / 127 : 1;
    scales[c] = s;
    for (let k = c * per; k < (c + 1) * per; k++) q[k] = Math.max(-127, Math.min(127, Math.round(w[k]! / s)));
  }
  return { q, scales };
}

/**
 * The model with its convs (all `quantizableConvs` but `keepFloat`) in QDQ int8. The input is not
 * changed; the float weights of quantized convs are replaced by their int8 form.
 */
export function quantize(source: OnnxModel, opts: QuantizeOptions): OnnxModel {
  const model = named(structuredClone(source));
  const g = model.graph;
  const kind = opts.activations ?? 'uint8';
  const actType = kind === 'uint8' ? DT_UINT8 : DT_INT8;
  const convs = quantizableConvs(model).filter((c) => !opts.keepFloat?.has(c.name!));
  const readers = consumers(model);
  const graphOutputs = new Set(g.output.map((o) => (o as { name: string }).name));
  const inits = new Map(g.initializer.map((t) => [t.name, t]));
  const added: ModelNode[] = [];
  /** float tensor → its dequantized copy (one Q/DQ pair per tensor however many convs read it) */
  const dq = new Map<string, { name: string; scale: number }>();
  const used = new Set(g.initializer.map((t) => t.name));

  const range = (name: string): Range => {
    const r = opts.ranges[name];
    if (!r) throw new Error(`no calibration range for ${name}`);
    return r;
  };
  /** float tensor → its quantized form (one QuantizeLinear per tensor however many convs read it) */
  const quantized = new Map<string, { name: string; scale: number; scaleName: string; zeroPoint: string }>();
  const quantizeOnly = (name: string, relu = false) => {
    const have = quantized.get(name);
    if (have) return have;
    const r = range(name);
    const { scale, zp } = actParams(relu ? { min: 0, max: r.max } : r, kind);
    const v = { name: `${name}_quantized`, scale, scaleName: `${name}_scale`, zeroPoint: `${name}_zero_point` };
    g.initializer.push(
      tensor(v.scaleName, [], DT_FLOAT, Float32Array.of(scale)),
      tensor(v.zeroPoint, [], actType, kind === 'uint8' ? Uint8Array.of(zp) : Int8Array.of(zp)),
    );
    added.push({
      opType: 'QuantizeLinear',
      input: [name, v.scaleName, v.zeroPoint],
      output: [v.name],
      name: `${name}_QuantizeLinear`,
    });
    quantized.set(name, v);
    return v;
  };
  const qdq = (name: string, relu: boolean): { name: string; scale: number } => {
    const have = dq.get(name) ?? [...dq.values()].find((v) => v.name === name);
    if (have) return have;
    const q = quantizeOnly(name, relu);
    added.push({
      opType: 'DequantizeLinear',
      input: [q.name, q.scaleName, q.zeroPoint],
      output: [`${name}_dequantized`],
      name: `${name}_DequantizeLinear`,
    });
    const v = { name: `${name}_dequantized`, scale: q.scale };
    dq.set(name, v);
    return v;
  };

  for (const conv of convs) {
    const wT = inits.get(conv.input[1]!)!;
    const channels = wT.dims[0]!;
    const { q, scales } = quantizeWeights(f32(wT), channels);
    const wName = `${wT.name}_quantized`;
    g.initializer.push(tensor(wName, wT.dims, DT_INT8, q));
    const bias = conv.input[2] ? f32(inits.get(conv.input[2])!) : new Float32Array(channels);
    const x = qdq(conv.input[0]!, false);
    g.initializer.push(
      tensor(`${wT.name}_scale`, [channels], DT_FLOAT, scales),
      tensor(`${wT.name}_zero_point`, [channels], DT_INT8, new Int8Array(channels)),
    );
    added.push({
      opType: 'DequantizeLinear',
      input: [wName, `${wT.name}_scale`, `${wT.name}_zero_point`],
      output: [`${wT.name}_dequantized`],
      name: `${wT.name}_DequantizeLinear`,
      attribute: [{ name: 'axis', type: 2, i: 0 }],
    });
    const bScales = scales.map((v) => v * x.scale);
    const bName = `${wT.name}_bias_quantized`;
    g.initializer.push(
      tensor(
        bName,
        [channels],
        DT_INT32,
        Int32Array.from(bias, (v, c) => Math.round(v / bScales[c]!)),
      ),
      tensor(`${bName}_scale`, [channels], DT_FLOAT, bScales),
      tensor(`${bName}_zero_point`, [channels], DT_INT32, new Int32Array(channels)),
    );
    added.push({
      opType: 'DequantizeLinear',
      input: [bName, `${bName}_scale`, `${bName}_zero_point`],
      output: [`${wT.name}_bias_dequantized`],
      name: `${bName}_DequantizeLinear`,
      attribute: [{ name: 'axis', type: 2, i: 0 }],
    });
    conv.input = [x.name, `${wT.name}_dequantized`, `${wT.name}_bias_dequantized`];
    // the output: quantized where the next layer reads it (after its Relu, if any); every reader takes the dequantized copy
    const out = quantizedOutput(conv, readers, graphOutputs);
    const y = qdq(out.name, out.relu);
    for (const r of readers.get(out.name) ?? []) r.input = r.input.map((i) => (i === out.name ? y.name : i));
  }
  if (opts.adds) {
    const isDq = (t: string) => [...dq.values()].some((v) => v.name === t);
    for (const n of g.node) {
      if (n.opType !== 'Add' || graphOutputs.has(n.output[0]!) || !opts.ranges[n.output[0]!]) continue;
      const inputs = n.input.map((i) => dq.get(i)?.name ?? i);
      if (!inputs.every(isDq)) continue;
      n.input = inputs;
      const y = qdq(n.output[0]!, false);
      for (const r of readers.get(n.output[0]!) ?? []) r.input = r.input.map((i) => (i === n.output[0] ? y.name : i));
    }
  }
  // drop the float weights no node reads any more
  const read = new Set([...g.node, ...added].flatMap((n) => n.input));
  g.initializer = g.initializer.filter((t) => read.has(t.name) || !used.has(t.name));
  // topological order: each Q/DQ right before the first node that reads its output
  g.node = topoSort(
    [...g.node, ...added],
    new Set([...g.input.map((i) => (i as { name: string }).name), ...g.initializer.map((t) => t.name)]),
  );
  return model;
}

/** The ops that run on a channels-last tensor as they do on a channels-first one (per-tensor scales). */
const LAYOUT_FREE = new Set(['QuantizeLinear', 'DequantizeLinear', 'Add', 'Relu']);

/**
 * The QDQ model (`quantize`) with each quantized conv written as onnxruntime's own integer conv
 * (com.microsoft QLinearConv, channels_last = 1: NHWC u8 activations × s8 weights) instead of the
 * DequantizeLinear → Conv → (Relu →) QuantizeLinear pattern onnxruntime fuses itself. Fused, its NHWC
 * kernel is wrapped in a Transpose on each side wherever a float node (the residual adds) reads the
 * result, and a 456² tile spent 28 % of its time in those transposes (server/engines/README.md, "int8").
 * Here the whole region of integer convs and the layout-free nodes between them (Q/DQ at per-tensor
 * scales, the float residual adds, Relus) works channels-last, with one Transpose where a tensor enters
 * the region and one where it leaves, so the arithmetic is that of the QDQ model. A Relu before the
 * output's QuantizeLinear is the clamp at the zero point (its range starts at 0).
 */
export function channelsLast(source: OnnxModel): OnnxModel {
  const model = structuredClone(source);
  const g = model.graph;
  const producer = new Map<string, ModelNode>();
  for (const n of g.node) for (const o of n.output) producer.set(o, n);
  const readers = consumers(model);
  const inits = new Set(g.initializer.map((t) => t.name));
  const drop = new Set<ModelNode>();
  const convs: ModelNode[] = [];
  for (const conv of g.node) {
    if (conv.opType !== 'Conv') continue;
    const [x, w, b] = conv.input.map((i) => (i ? producer.get(i) : undefined));
    if (x?.opType !== 'DequantizeLinear' || w?.opType !== 'DequantizeLinear' || b?.opType !== 'DequantizeLinear')
      continue;
    let out = conv.output[0]!;
    const relu =
      readers.get(out)?.length === 1 && readers.get(out)![0]!.opType === 'Relu' ? readers.get(out)![0]! : undefined;
    if (relu) out = relu.output[0]!;
    const q = readers.get(out);
    if (q?.length !== 1 || q[0]!.opType !== 'QuantizeLinear') continue;
    const quant = q[0]!;
    drop.add(conv).add(quant).add(w).add(b);
    if (relu) drop.add(relu);
    if ((readers.get(conv.input[0]!) ?? []).length === 1) drop.add(x);
    const qconv: ModelNode = {
      opType: 'QLinearConv',
      domain: 'com.microsoft',
      name: conv.name,
      input: [...x.input.slice(0, 3), ...w.input.slice(0, 3), quant.input[1]!, quant.input[2]!, b.input[0]!],
      output: [quant.output[0]!],
      attribute: [...(conv.attribute ?? []), { name: 'channels_last', type: 2, i: 1 }],
    };
    convs.push(qconv);
  }
  let nodes = [...g.node.filter((n) => !drop.has(n)), ...convs];
  // the region: integer convs and the layout-free nodes joined to them through activation tensors
  const region = new Set<ModelNode>(convs);
  const prod = new Map<string, ModelNode>();
  for (const n of nodes) for (const o of n.output) prod.set(o, n);
  const reads = new Map<string, ModelNode[]>();
  for (const n of nodes) for (const i of n.input) if (i && !inits.has(i)) reads.set(i, [...(reads.get(i) ?? []), n]);
  const joinable = (n: ModelNode | undefined) =>
    !!n && !region.has(n) && LAYOUT_FREE.has(n.opType) && n.input.every((i) => !i || inits.has(i) || prod.has(i));
  for (let queue = [...convs]; queue.length;) {
    const n = queue.pop()!;
    const near = [
      ...n.input.filter((i) => i && !inits.has(i)).map((i) => prod.get(i)),
      ...n.output.flatMap((o) => reads.get(o) ?? []),
    ];
    for (const m of near)
      if (joinable(m)) {
        region.add(m!);
        queue.push(m!);
      }
  }
  // a Transpose on every activation edge into and out of the region
  const added: ModelNode[] = [];
  const moved = new Map<string, string>();
  const transposed = (t: string, perm: number[], suffix: string) => {
    const key = `${t}#${suffix}`;
    let name = moved.get(key);
    if (!name) {
      name = `${t}_${suffix}`;
      moved.set(key, name);
      added.push({
        opType: 'Transpose',
        name: `${t}_Transpose_${suffix}`,
        input: [t],
        output: [name],
        attribute: [{ name: 'perm', type: 7, ints: perm }],
      });
    }
    return name;
  };
  const outputs = new Set(g.output.map((o) => (o as { name: string }).name));
  for (const n of nodes) {
    const inside = region.has(n);
    n.input = n.input.map((i) => {
      if (!i || inits.has(i)) return i;
      const from = prod.get(i);
      const fromInside = !!from && region.has(from);
      if (inside && !fromInside) return transposed(i, [0, 2, 3, 1], 'nhwc');
      if (!inside && fromInside) return transposed(i, [0, 3, 1, 2], 'nchw');
      return i;
    });
  }
  for (const o of outputs)
    if (prod.get(o) && region.has(prod.get(o)!)) throw new Error(`graph output ${o} would be channels-last`);
  nodes = [...nodes, ...added];
  g.node = topoSort(nodes, new Set([...g.input.map((i) => (i as { name: string }).name), ...inits]));
  // the bias's float scale and zero point (QLinearConv derives them) and weights no node reads any more
  const read = new Set(g.node.flatMap((n) => n.input));
  g.initializer = g.initializer.filter((t) => read.has(t.name));
  // a value_info of an edge now channels-last would state the old shape
  g.valueInfo = [];
  if (!model.opsetImport.some((o) => o.domain === 'com.microsoft'))
    model.opsetImport.push({ domain: 'com.microsoft', version: 1 });
  return model;
}

/** Orders nodes so every input is produced before it is read (Kahn's algorithm, stable). */
function topoSort(nodes: ModelNode[], available: Set<string>): ModelNode[] {
  const out: ModelNode[] = [];
  const have = new Set(available);
  let rest = nodes;
  while (rest.length) {
    const next: ModelNode[] = [];
    for (const n of rest) {
      if (n.input.every((i) => !i || have.has(i))) {
        out.push(n);
        n.output.forEach((o) => have.add(o));
      } else next.push(n);
    }
    if (next.length === rest.length) throw new Error(`graph has a cycle or an unknown input at ${next[0]!.name}`);
    rest = next;
  }
  return out;
}

/**
 * The calibrated quantization of one net, kept beside its fp32 file (weights/<net>.int8.json, written by
 * scripts/quantize-nets.ts): `npm run models` builds the int8 model from the two (`quantizeWithRecipe`).
 */
export interface Int8Recipe {
  /** the fp32 file and the sha256 of the bytes its ranges were measured on */
  net: string;
  sha256: string;
  activations: 'uint8' | 'int8';
  adds: boolean;
  keepFloat: string[];
  ranges: Record<string, [number, number]>;
  /** how the ranges were measured and what the result gave on held-out crops (for the record) */
  calibration: Record<string, unknown>;
}

/** The int8 model of a recipe: QDQ (`quantize`) written channels-last (`channelsLast`), the same arithmetic. */
export function quantizeWithRecipe(fp32: Uint8Array, recipe: Int8Recipe): Uint8Array {
  const sha = createHash('sha256').update(fp32).digest('hex');
  if (sha !== recipe.sha256)
    throw new Error(
      `${recipe.net} is not the file its int8 ranges were measured on (sha256 ${sha.slice(0, 12)}, recipe ${recipe.sha256.slice(0, 12)}): run scripts/quantize-nets.ts again`,
    );
  const ranges = Object.fromEntries(Object.entries(recipe.ranges).map(([k, [min, max]]) => [k, { min, max }]));
  return writeModel(
    channelsLast(
      quantize(readModel(fp32), {
        ranges,
        keepFloat: new Set(recipe.keepFloat),
        activations: recipe.activations,
        adds: recipe.adds,
      }),
    ),
  );
}
