/**
 * General TF.js graph model → ONNX for one fixed input shape (used for the jax2tf MAXIM graphs).
 * Every tensor gets a static shape; whatever depends only on constants and shapes (Shape,
 * StridedSlice, Pack, Range, resize index/weight tables, weight transposes) is evaluated in JS
 * (tfeval.ts) and stored as an ONNX constant, so the emitted graph holds only the pixel path.
 * Layout stays NHWC as in TF; Conv2D / Conv2DBackpropInput are wrapped in NHWC↔NCHW transposes,
 * which onnxruntime's transpose optimiser cancels between neighbouring convolutions.
 */
import { OnnxGraph, DT_BOOL, DT_FLOAT, DT_INT32, DT_INT64, type AttrValue } from './onnx.js';
import { readTfjsModel } from './tfjsWeights.js';
import * as E from './tfeval.js';
import type { DType, Tensor } from './tfeval.js';

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped model JSON
  attr?: Record<string, any>;
}

interface Val {
  shape: number[];
  dtype: DType;
  /** value when known at conversion time */
  c?: Tensor;
  /** ONNX tensor name once it exists in the graph */
  name?: string;
}

const b64 = (s: string) => Buffer.from(s, 'base64').toString();
const TF_DTYPE: Record<string, DType> = { DT_FLOAT: 'float32', DT_INT32: 'int32', DT_BOOL: 'bool' };
const ONNX_DT: Record<DType, number> = { float32: DT_FLOAT, int32: DT_INT32, bool: DT_BOOL };

const BINARY: Record<string, { onnx: string; fn: (a: number, b: number) => number; bool?: boolean }> = {
  AddV2: { onnx: 'Add', fn: (a, b) => a + b },
  Sub: { onnx: 'Sub', fn: (a, b) => a - b },
  Mul: { onnx: 'Mul', fn: (a, b) => a * b },
  RealDiv: { onnx: 'Div', fn: (a, b) => a / b },
  Maximum: { onnx: 'Max', fn: (a, b) => Math.max(a, b) },
  Minimum: { onnx: 'Min', fn: (a, b) => Math.min(a, b) },
  FloorDiv: { onnx: '', fn: (a, b) => Math.floor(a / b) },
  FloorMod: { onnx: '', fn: (a, b) => a - Math.floor(a / b) * b },
  Greater: { onnx: 'Greater', fn: (a, b) => +(a > b), bool: true },
  GreaterEqual: { onnx: 'GreaterOrEqual', fn: (a, b) => +(a >= b), bool: true },
  Less: { onnx: 'Less', fn: (a, b) => +(a < b), bool: true },
  LessEqual: { onnx: 'LessOrEqual', fn: (a, b) => +(a <= b), bool: true },
  NotEqual: { onnx: '', fn: (a, b) => +(a !== b), bool: true },
  LogicalAnd: { onnx: 'And', fn: (a, b) => +(a && b), bool: true },
};

const UNARY: Record<string, { onnx: string; fn: (a: number) => number }> = {
  Neg: { onnx: 'Neg', fn: (a) => -a },
  Abs: { onnx: 'Abs', fn: Math.abs },
  Exp: { onnx: 'Exp', fn: Math.exp },
  Tanh: { onnx: 'Tanh', fn: Math.tanh },
  Floor: { onnx: 'Floor', fn: Math.floor },
  Sign: { onnx: 'Sign', fn: Math.sign },
  Reciprocal: { onnx: 'Reciprocal', fn: (a) => 1 / a },
  Square: { onnx: '', fn: (a) => a * a },
  Rsqrt: { onnx: '', fn: (a) => 1 / Math.sqrt(a) },
  Identity: { onnx: 'Identity', fn: (a) => a },
};

/** Multiply-accumulate count of the emitted graph (Conv, ConvTranspose, MatMul, Einsum), for the benchmark. */
export interface GraphStats {
  macs: number;
  onnxNodes: number;
}

/** The conversion's state and helpers that every op handler works with. */
interface Conversion {
  g: OnnxGraph;
  vals: Map<string, Val>;
  inputShape: number[];
  weights: ReturnType<typeof readTfjsModel>['weights'];
  /** an int64 constant (shared between nodes that need the same one) */
  i64: (values: number[], dims?: number[]) => string;
  /** the ONNX name of a value; a constant becomes an initializer on first use */
  on: (tfName: string) => string;
  /** a value that must be known at conversion time, as numbers */
  intsOf: (tfName: string) => number[];
  macs: number;
}

/** One TF node being converted: its inputs' names and values, its attributes, and how to record its result. */
interface Call {
  n: TfNode;
  ins: string[];
  iv: Val[];
  allConst: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped model JSON
  a: Record<string, any>;
  /** the node's value is known at conversion time */
  fold: (t: Tensor) => void;
  /** the node becomes an ONNX op of this shape and type */
  emit: (op: string, ins: string[], shape: number[], dtype: DType, attrs?: Record<string, AttrValue>) => void;
}

type Handler = (c: Conversion, x: Call) => void;

const dtypeAttr = (a: Call['a'], k: string): DType => TF_DTYPE[a[k]?.type] ?? 'float32';
/** An axis counted from the end when negative. */
const axisIn = (ax: number, rank: number) => (ax < 0 ? ax + rank : ax);
/** A reshape (ExpandDims, Squeeze): folded on a constant, an ONNX Reshape otherwise. */
const reshapeTo = (c: Conversion, x: Call, shape: number[]) =>
  x.allConst
    ? x.fold({ ...x.iv[0]!.c!, shape })
    : x.emit('Reshape', [c.on(x.ins[0]!), c.i64(shape)], shape, x.iv[0]!.dtype);
/** Multiply-accumulates of an Einsum: the product of every index's extent. */
const einsumMacs = (eq: string, a: number[], b: number[]) => {
  const m = new Map<string, number>();
  const [ea, eb] = eq.split('->')[0]!.split(',') as [string, string];
  [...ea].forEach((ch, i) => m.set(ch, a[i]!));
  [...eb].forEach((ch, i) => m.set(ch, b[i]!));
  return [...m.values()].reduce((p, v) => p * v, 1);
};

/** Elementwise binary ops: evaluated when both inputs are known, else their ONNX op (a few have none on runtime tensors). */
const binary =
  (b: (typeof BINARY)[string]): Handler =>
  (c, { n, ins, iv, allConst, fold, emit }) => {
    const dtype: DType = b.bool ? 'bool' : iv[0]!.dtype;
    if (allConst)
      return fold(
        E.elementwise([iv[0]!.c!, iv[1]!.c!], dtype, dtype === 'int32' ? (x, y) => Math.trunc(b.fn(x, y)) : b.fn),
      );
    const shape = E.broadcastShape(iv[0]!.shape, iv[1]!.shape);
    if (n.op === 'NotEqual')
      return emit('Not', [c.g.node('Equal', [c.on(ins[0]!), c.on(ins[1]!)], [`${n.name}_eq`])], shape, 'bool');
    if (!b.onnx) throw new Error(`${n.op} on a runtime tensor is not supported (${n.name})`);
    emit(b.onnx, [c.on(ins[0]!), c.on(ins[1]!)], shape, dtype);
  };

/** Elementwise unary ops: evaluated on a known input, else their ONNX op (Square and Rsqrt spelled out). */
const unary =
  (u: (typeof UNARY)[string]): Handler =>
  (c, { n, ins, iv, allConst, fold, emit }) => {
    const v = iv[0]!;
    if (allConst) return fold(E.elementwise([v.c!], v.dtype, u.fn));
    if (n.op === 'Square') emit('Mul', [c.on(ins[0]!), c.on(ins[0]!)], v.shape, v.dtype);
    else if (n.op === 'Rsqrt')
      emit('Reciprocal', [c.g.node('Sqrt', [c.on(ins[0]!)], [`${n.name}_sqrt`])], v.shape, v.dtype);
    else emit(u.onnx, [c.on(ins[0]!)], v.shape, v.dtype);
  };

/** Conv2D (NHWC, kernel HWIO) and Conv2DBackpropInput, each between NHWC↔NCHW transposes. */
const conv: Handler = (c, { n, ins, iv, a, emit }) => {
  if (b64(a.data_format?.s ?? 'TkhXQw==') !== 'NHWC') throw new Error(`${n.name}: data format`);
  const transposed = n.op === 'Conv2DBackpropInput';
  const x = transposed ? iv[2]! : iv[0]!;
  const xName = transposed ? ins[2]! : ins[0]!;
  const k = c.vals.get(ins[1]!)!.c;
  if (!k) throw new Error(`${n.name}: kernel must be constant`);
  const [kh, kw, k2, k3] = k.shape as [number, number, number, number];
  const s = ((a.strides?.list?.i ?? []) as string[]).map(Number);
  const d = ((a.dilations?.list?.i ?? ['1', '1', '1', '1']) as string[]).map(Number);
  const padding = b64(a.padding?.s ?? '');
  if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${n.name}: padding ${padding}`);
  const nchw = c.g.node('Transpose', [c.on(xName)], [`${n.name}_nchw`], { perm: [0, 3, 1, 2] });
  // Conv2D kernel HWIO → OIHW; Conv2DBackpropInput kernel HW(out)(in) → ONNX (in)(out)HW: the same permutation.
  const wt = E.transpose(k, [3, 2, 0, 1]);
  const wName = c.g.floatInit(`${n.name}.w`, wt.shape, wt.data as Float32Array);
  let out: number[];
  if (!transposed) {
    const r = E.convOutShape([x.shape[1]!, x.shape[2]!], [kh, kw], [s[1]!, s[2]!], [d[1]!, d[2]!], padding === 'SAME');
    out = [x.shape[0]!, r.out[0]!, r.out[1]!, k3];
    c.macs += E.size(out) * kh * kw * k2;
    c.g.node('Conv', [nchw, wName], [`${n.name}_conv`], {
      kernel_shape: [kh, kw],
      strides: [s[1]!, s[2]!],
      dilations: [d[1]!, d[2]!],
      pads: r.pads,
    });
  } else {
    const size = c.intsOf(ins[0]!); // the forward conv's input = this op's output
    out = size;
    c.macs += E.size(x.shape) * kh * kw * k2;
    const pads: number[] = [];
    const extra: number[] = [];
    for (let i = 0; i < 2; i++) {
      const o = size[i + 1]!;
      const ek = ((i ? kw : kh) - 1) * d[i + 1]! + 1;
      const inDim = x.shape[i + 1]!;
      const total = padding === 'SAME' ? Math.max((inDim - 1) * s[i + 1]! + ek - o, 0) : 0;
      const before = Math.floor(total / 2);
      const full = (inDim - 1) * s[i + 1]! + ek;
      const after = full - o - before;
      pads[i] = before;
      pads[i + 2] = Math.max(after, 0);
      extra[i] = Math.max(-after, 0);
    }
    c.g.node('ConvTranspose', [nchw, wName], [`${n.name}_conv`], {
      kernel_shape: [kh, kw],
      strides: [s[1]!, s[2]!],
      dilations: [d[1]!, d[2]!],
      pads,
      output_padding: extra,
    });
  }
  emit('Transpose', [`${n.name}_conv`], out, 'float32', { perm: [0, 2, 3, 1] });
};

/** Every TF op the converter knows, by name: what is known at conversion time is folded, the rest emitted. */
const HANDLERS: Record<string, Handler> = {
  ...Object.fromEntries(Object.entries(BINARY).map(([op, b]) => [op, binary(b)])),
  ...Object.fromEntries(Object.entries(UNARY).map(([op, u]) => [op, unary(u)])),
  Const: (c, { n, fold }) => {
    const w = c.weights.get(n.name);
    if (!w) throw new Error(`missing const ${n.name}`);
    fold({ shape: w.shape, dtype: w.dtype, data: w.data });
  },
  Placeholder: (c, { n }) => {
    c.g.input(n.name, c.inputShape);
    c.vals.set(n.name, { shape: c.inputShape, dtype: 'float32', name: n.name });
  },
  Shape: (_c, { iv, fold }) => fold(E.tensor('int32', [iv[0]!.shape.length], iv[0]!.shape)),
  Cast: (c, { ins, iv, a, allConst, fold, emit }) => {
    const to = dtypeAttr(a, 'DstT');
    if (allConst)
      fold(E.elementwise([iv[0]!.c!], to, to === 'int32' ? Math.trunc : to === 'bool' ? (x) => +!!x : (x) => x));
    else emit('Cast', [c.on(ins[0]!)], iv[0]!.shape, to, { to: ONNX_DT[to] });
  },
  Reshape: (c, x) => reshapeTo(c, x, E.reshapeDims(x.iv[0]!.shape, c.intsOf(x.ins[1]!))),
  Transpose: (c, { ins, iv, allConst, fold, emit }) => {
    const perm = c.intsOf(ins[1]!);
    if (allConst) fold(E.transpose(iv[0]!.c!, perm));
    else
      emit(
        'Transpose',
        [c.on(ins[0]!)],
        perm.map((p) => iv[0]!.shape[p]!),
        iv[0]!.dtype,
        { perm },
      );
  },
  ExpandDims: (c, x) => {
    const shape = x.iv[0]!.shape;
    const ax = axisIn(c.intsOf(x.ins[1]!)[0]!, shape.length + 1);
    reshapeTo(c, x, [...shape.slice(0, ax), 1, ...shape.slice(ax)]);
  },
  Squeeze: (c, x) => {
    const shape = x.iv[0]!.shape;
    const dims = ((x.a.squeeze_dims?.list?.i ?? []) as string[]).map(Number).map((d) => axisIn(d, shape.length));
    reshapeTo(
      c,
      x,
      shape.filter((d, i) => (dims.length ? !dims.includes(i) : d !== 1)),
    );
  },
  Pack: (c, { n, ins, iv, a, allConst, fold, emit }) => {
    const ax = axisIn(Number(a.axis?.i ?? 0), iv[0]!.shape.length + 1);
    const one = [...iv[0]!.shape.slice(0, ax), 1, ...iv[0]!.shape.slice(ax)];
    if (allConst)
      return fold(
        E.concat(
          iv.map((v) => ({ ...v.c!, shape: one })),
          ax,
        ),
      );
    const parts = ins.map((i) => c.g.node('Reshape', [c.on(i), c.i64(one)], [c.g.uid(`${n.name}_u`)]));
    const shape = [...one];
    shape[ax] = ins.length;
    emit('Concat', parts, shape, iv[0]!.dtype, { axis: ax });
  },
  ConcatV2: (c, { ins, iv, fold, emit }) => {
    const parts = iv.slice(0, -1);
    const ax = axisIn(c.intsOf(ins[ins.length - 1]!)[0]!, parts[0]!.shape.length);
    if (parts.every((v) => v.c))
      return fold(
        E.concat(
          parts.map((v) => v.c!),
          ax,
        ),
      );
    const shape = [...parts[0]!.shape];
    shape[ax] = parts.reduce((s, v) => s + v.shape[ax]!, 0);
    emit('Concat', ins.slice(0, -1).map(c.on), shape, parts[0]!.dtype, { axis: ax });
  },
  StridedSlice: (c, { n, ins, iv, a, fold, emit }) => {
    const spec = E.stridedSliceSpec(iv[0]!.shape, c.intsOf(ins[1]!), c.intsOf(ins[2]!), c.intsOf(ins[3]!), {
      begin: Number(a.begin_mask?.i ?? 0),
      end: Number(a.end_mask?.i ?? 0),
      shrink: Number(a.shrink_axis_mask?.i ?? 0),
      newAxis: Number(a.new_axis_mask?.i ?? 0),
      ellipsis: Number(a.ellipsis_mask?.i ?? 0),
    });
    if (iv[0]!.c) return fold(E.applySlice(iv[0]!.c, spec));
    // ONNX Slice: a negative step's "before index 0" end is -(dim+1) after ONNX adds dim.
    const ends = spec.ends.map((e, i) => (spec.steps[i]! < 0 && e === -1 ? -iv[0]!.shape[i]! - 1 : e));
    const axes = spec.starts.map((_, i) => i);
    const sl = c.g.node(
      'Slice',
      [c.on(ins[0]!), c.i64(spec.starts), c.i64(ends), c.i64(axes), c.i64(spec.steps)],
      [`${n.name}_slice`],
    );
    emit('Reshape', [sl, c.i64(spec.out)], spec.out, iv[0]!.dtype);
  },
  GatherV2: (c, { n, ins, iv, a, allConst, fold, emit }) => {
    if (Number(a.batch_dims?.i ?? 0) !== 0) throw new Error(`${n.name}: batch_dims`);
    const axis = c.intsOf(ins[2]!)[0]!;
    const idx = iv[1]!;
    if (allConst) return fold(E.gather(iv[0]!.c!, idx.c!, axis));
    const ax = axisIn(axis, iv[0]!.shape.length);
    const shape = [...iv[0]!.shape.slice(0, ax), ...idx.shape, ...iv[0]!.shape.slice(ax + 1)];
    const indices = idx.c ? c.i64(Array.from(idx.c.data), idx.shape) : c.on(ins[1]!);
    emit('Gather', [c.on(ins[0]!), indices], shape, iv[0]!.dtype, { axis: ax });
  },
  Range: (c, { ins, iv, fold }) => {
    const [start, limit, delta] = [c.intsOf(ins[0]!)[0]!, c.intsOf(ins[1]!)[0]!, c.intsOf(ins[2]!)[0]!];
    const vs: number[] = [];
    for (let v = start; delta > 0 ? v < limit : v > limit; v += delta) vs.push(v);
    fold(E.tensor(iv[0]!.dtype, [vs.length], vs));
  },
  BroadcastTo: (c, { ins, iv, fold, emit }) => {
    const shape = c.intsOf(ins[1]!);
    if (iv[0]!.c && E.size(shape) <= 1 << 16) fold(E.broadcastTo(iv[0]!.c, shape));
    else emit('Expand', [c.on(ins[0]!), c.i64(shape)], shape, iv[0]!.dtype);
  },
  SelectV2: (c, { ins, iv, allConst, fold, emit }) => {
    const shape = E.broadcastShape(...iv.map((v) => v.shape));
    if (allConst)
      fold(
        E.elementwise(
          iv.map((v) => v.c!),
          iv[1]!.dtype,
          (cond, x, y) => (cond ? x : y),
        ),
      );
    else emit('Where', ins.map(c.on), shape, iv[1]!.dtype);
  },
  Sum: (c, { ins, iv, a, allConst, fold, emit }) => {
    const axes = c.intsOf(ins[1]!);
    const keep = !!a.keep_dims?.b;
    if (allConst) return fold(E.reduceSum(iv[0]!.c!, axes, keep));
    const ax = axes.map((x) => axisIn(x, iv[0]!.shape.length));
    const shape = keep
      ? iv[0]!.shape.map((d, i) => (ax.includes(i) ? 1 : d))
      : iv[0]!.shape.filter((_, i) => !ax.includes(i));
    emit('ReduceSum', [c.on(ins[0]!), c.i64(ax)], shape, iv[0]!.dtype, { keepdims: keep ? 1 : 0 });
  },
  Einsum: (c, { ins, iv, a, emit }) => {
    const eq = b64(a.equation.s);
    const shape = E.einsumShape(eq, iv[0]!.shape, iv[1]!.shape);
    c.macs += einsumMacs(eq, iv[0]!.shape, iv[1]!.shape);
    // "…g,gf->…f" is a plain MatMul, which onnxruntime runs faster than its Einsum.
    const plainMatMul = /^([a-z]*)([a-z]),\2([a-z])->\1\3$/.test(eq) && iv[1]!.shape.length === 2;
    if (plainMatMul) emit('MatMul', [c.on(ins[0]!), c.on(ins[1]!)], shape, 'float32');
    else emit('Einsum', [c.on(ins[0]!), c.on(ins[1]!)], shape, 'float32', { equation: eq });
  },
  Conv2D: conv,
  Conv2DBackpropInput: conv,
};

/** The nodes the outputs depend on, inputs before their users (an iterative DFS: graphs are deep). */
function topologicalOrder(nodes: Map<string, TfNode>, outNames: string[], inputsOf: (n: TfNode) => string[]): TfNode[] {
  const order: TfNode[] = [];
  const state = new Map<string, number>();
  for (const o of outNames) {
    const stack: [string, boolean][] = [[o, false]];
    while (stack.length) {
      const [name, done] = stack.pop()!;
      if (done) {
        state.set(name, 2);
        order.push(nodes.get(name)!);
        continue;
      }
      if (state.has(name)) continue;
      state.set(name, 1);
      stack.push([name, true]);
      for (const i of inputsOf(nodes.get(name) ?? { name, op: '?' })) if (!state.has(i)) stack.push([i, false]);
    }
  }
  return order;
}

/** Converts a TF.js graph model for input shape `inputShape` (NHWC); returns the ONNX bytes. */
export function convertTfGraphStatic(modelJsonPath: string, inputShape: number[], stats?: GraphStats): Uint8Array {
  const { json, weights } = readTfjsModel(modelJsonPath);
  const nodes = new Map<string, TfNode>((json.modelTopology.node as TfNode[]).map((n) => [n.name, n]));
  const sig = json.signature ?? json.userDefinedMetadata?.signature;
  const outNames: string[] = Object.values(sig.outputs as Record<string, { name: string }>).map((o) =>
    o.name.replace(/:0$/, ''),
  );
  const ref = (s: string) => s.replace(/:0$/, '');
  const inputsOf = (n: TfNode) => (n.input ?? []).filter((s) => !s.startsWith('^')).map(ref);

  const g = new OnnxGraph('tfgraph-static');
  const vals = new Map<string, Val>();
  const i64Cache = new Map<string, string>();
  const c: Conversion = {
    g,
    vals,
    inputShape,
    weights,
    macs: 0,
    i64: (values, dims = [values.length]) => {
      const key = `${dims.join('x')}:${values.join(',')}`;
      let name = i64Cache.get(key);
      if (!name) {
        const data = BigInt64Array.from(values.map((v) => BigInt(v)));
        name = g.rawInit(g.uid('i64'), dims, DT_INT64, new Uint8Array(data.buffer));
        i64Cache.set(key, name);
      }
      return name;
    },
    on: (tfName) => {
      const v = vals.get(tfName)!;
      if (v.name) return v.name;
      const t = v.c!;
      v.name = g.rawInit(
        tfName,
        t.shape,
        ONNX_DT[t.dtype],
        new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
      );
      return v.name;
    },
    intsOf: (tfName) => {
      const v = vals.get(tfName)!;
      if (!v.c) throw new Error(`${tfName} must be constant for a fixed input size`);
      return Array.from(v.c.data);
    },
  };

  for (const n of topologicalOrder(nodes, outNames, inputsOf)) {
    const handler = Object.hasOwn(HANDLERS, n.op) ? HANDLERS[n.op]! : null;
    if (!handler) throw new Error(`unsupported TF op ${n.op} (${n.name})`);
    const ins = inputsOf(n);
    const iv = ins.map((i) => vals.get(i)!);
    handler(c, {
      n,
      ins,
      iv,
      allConst: iv.every((v) => v.c),
      a: n.attr ?? {},
      fold: (t) => void vals.set(n.name, { shape: t.shape, dtype: t.dtype, c: t }),
      emit: (op, inputs, shape, dtype, attrs = {}) => {
        g.node(op, inputs, [n.name], attrs);
        vals.set(n.name, { shape, dtype, name: n.name });
      },
    });
  }

  for (const o of outNames) {
    const v = vals.get(o)!;
    const name = c.on(o);
    if (name !== o) g.node('Identity', [name], [o]);
    g.output(o, v.shape);
  }
  if (stats) Object.assign(stats, { macs: c.macs, onnxNodes: g.nodeCount });
  return g.encode(13);
}
