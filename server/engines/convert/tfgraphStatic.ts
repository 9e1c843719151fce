/**
 * General TF.js graph model → ONNX for one fixed input shape (used for the jax2tf MAXIM graphs).
 * Every tensor gets a static shape; whatever depends only on constants and shapes (Shape,
 * StridedSlice, Pack, Range, resize index/weight tables, weight transposes) is evaluated in JS
 * (tfeval.ts) and stored as an ONNX constant, so the emitted graph holds only the pixel path.
 * Layout stays NHWC as in TF; Conv2D / Conv2DBackpropInput are wrapped in NHWC↔NCHW transposes,
 * which onnxruntime's transpose optimiser cancels between neighbouring convolutions.
 */
import { OnnxGraph, DT_BOOL, DT_FLOAT, DT_INT32, DT_INT64 } from './onnx.js';
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

/** Converts a TF.js graph model for input shape `inputShape` (NHWC); returns the ONNX bytes. */
export function convertTfGraphStatic(modelJsonPath: string, inputShape: number[], stats?: GraphStats): Uint8Array {
  let macs = 0;
  const dimsOf = (eq: string, a: number[], b: number[]) => {
    const m = new Map<string, number>();
    const [ea, eb] = eq.split('->')[0]!.split(',') as [string, string];
    [...ea].forEach((c, i) => m.set(c, a[i]!));
    [...eb].forEach((c, i) => m.set(c, b[i]!));
    return [...m.values()].reduce((p, v) => p * v, 1);
  };
  const { json, weights } = readTfjsModel(modelJsonPath);
  const nodes = new Map<string, TfNode>((json.modelTopology.node as TfNode[]).map((n) => [n.name, n]));
  const sig = json.signature ?? json.userDefinedMetadata?.signature;
  const outNames: string[] = Object.values(sig.outputs as Record<string, { name: string }>).map((o) => o.name.replace(/:0$/, ''));
  const g = new OnnxGraph('tfgraph-static');
  const vals = new Map<string, Val>();
  const ref = (s: string) => s.replace(/:0$/, '');
  const inputsOf = (n: TfNode) => (n.input ?? []).filter((s) => !s.startsWith('^')).map(ref);

  // Iterative DFS topological order from the outputs (skips unused nodes).
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

  const i64Cache = new Map<string, string>();
  const i64 = (values: number[], dims = [values.length]) => {
    const key = `${dims.join('x')}:${values.join(',')}`;
    let n = i64Cache.get(key);
    if (!n) {
      const data = BigInt64Array.from(values.map((v) => BigInt(v)));
      n = g.rawInit(g.uid('i64'), dims, DT_INT64, new Uint8Array(data.buffer));
      i64Cache.set(key, n);
    }
    return n;
  };
  /** ONNX name of a value; constants become initializers on first use. */
  const on = (tfName: string): string => {
    const v = vals.get(tfName)!;
    if (v.name) return v.name;
    const t = v.c!;
    const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    v.name = g.rawInit(tfName, t.shape, ONNX_DT[t.dtype], bytes);
    return v.name;
  };
  const intsOf = (tfName: string): number[] => {
    const v = vals.get(tfName)!;
    if (!v.c) throw new Error(`${tfName} must be constant for a fixed input size`);
    return Array.from(v.c.data);
  };
  const emit = (n: TfNode, op: string, ins: string[], shape: number[], dtype: DType, attrs = {}) => {
    g.node(op, ins, [n.name], attrs);
    vals.set(n.name, { shape, dtype, name: n.name });
  };

  for (const n of order) {
    const ins = inputsOf(n);
    const iv = ins.map((i) => vals.get(i)!);
    const allConst = iv.every((v) => v.c);
    const fold = (t: Tensor) => vals.set(n.name, { shape: t.shape, dtype: t.dtype, c: t });
    const a = n.attr ?? {};
    const dtypeAttr = (k: string): DType => TF_DTYPE[a[k]?.type] ?? 'float32';

    if (n.op === 'Const') {
      const w = weights.get(n.name);
      if (!w) throw new Error(`missing const ${n.name}`);
      fold({ shape: w.shape, dtype: w.dtype, data: w.data });
      continue;
    }
    if (n.op === 'Placeholder') {
      g.input(n.name, inputShape);
      vals.set(n.name, { shape: inputShape, dtype: 'float32', name: n.name });
      continue;
    }
    if (n.op === 'Shape') {
      fold(E.tensor('int32', [iv[0]!.shape.length], iv[0]!.shape));
      continue;
    }
    if (BINARY[n.op]) {
      const b = BINARY[n.op]!;
      const dtype: DType = b.bool ? 'bool' : iv[0]!.dtype;
      if (allConst) {
        fold(E.elementwise([iv[0]!.c!, iv[1]!.c!], dtype, dtype === 'int32' ? (x, y) => Math.trunc(b.fn(x, y)) : b.fn));
        continue;
      }
      const shape = E.broadcastShape(iv[0]!.shape, iv[1]!.shape);
      if (n.op === 'NotEqual') {
        const eq = g.node('Equal', [on(ins[0]!), on(ins[1]!)], [`${n.name}_eq`]);
        emit(n, 'Not', [eq], shape, 'bool');
      } else if (!b.onnx) throw new Error(`${n.op} on a runtime tensor is not supported (${n.name})`);
      else emit(n, b.onnx, [on(ins[0]!), on(ins[1]!)], shape, dtype);
      continue;
    }
    if (UNARY[n.op]) {
      const u = UNARY[n.op]!;
      const v = iv[0]!;
      if (allConst) {
        fold(E.elementwise([v.c!], v.dtype, u.fn));
        continue;
      }
      if (n.op === 'Square') emit(n, 'Mul', [on(ins[0]!), on(ins[0]!)], v.shape, v.dtype);
      else if (n.op === 'Rsqrt') emit(n, 'Reciprocal', [g.node('Sqrt', [on(ins[0]!)], [`${n.name}_sqrt`])], v.shape, v.dtype);
      else emit(n, u.onnx, [on(ins[0]!)], v.shape, v.dtype);
      continue;
    }
    switch (n.op) {
      case 'Cast': {
        const to = dtypeAttr('DstT');
        if (allConst) fold(E.elementwise([iv[0]!.c!], to, to === 'int32' ? Math.trunc : to === 'bool' ? (x) => +!!x : (x) => x));
        else emit(n, 'Cast', [on(ins[0]!)], iv[0]!.shape, to, { to: ONNX_DT[to] });
        break;
      }
      case 'Reshape': {
        const shape = E.reshapeDims(iv[0]!.shape, intsOf(ins[1]!));
        if (allConst) fold({ ...iv[0]!.c!, shape });
        else emit(n, 'Reshape', [on(ins[0]!), i64(shape)], shape, iv[0]!.dtype);
        break;
      }
      case 'Transpose': {
        const perm = intsOf(ins[1]!);
        if (allConst) fold(E.transpose(iv[0]!.c!, perm));
        else emit(n, 'Transpose', [on(ins[0]!)], perm.map((p) => iv[0]!.shape[p]!), iv[0]!.dtype, { perm });
        break;
      }
      case 'ExpandDims': {
        const r = iv[0]!.shape.length;
        let ax = intsOf(ins[1]!)[0]!;
        if (ax < 0) ax += r + 1;
        const shape = [...iv[0]!.shape.slice(0, ax), 1, ...iv[0]!.shape.slice(ax)];
        if (allConst) fold({ ...iv[0]!.c!, shape });
        else emit(n, 'Reshape', [on(ins[0]!), i64(shape)], shape, iv[0]!.dtype);
        break;
      }
      case 'Squeeze': {
        const r = iv[0]!.shape.length;
        const dims = ((a.squeeze_dims?.list?.i ?? []) as string[]).map(Number).map((d) => (d < 0 ? d + r : d));
        const shape = iv[0]!.shape.filter((d, i) => (dims.length ? !dims.includes(i) : d !== 1));
        if (allConst) fold({ ...iv[0]!.c!, shape });
        else emit(n, 'Reshape', [on(ins[0]!), i64(shape)], shape, iv[0]!.dtype);
        break;
      }
      case 'Pack': {
        const r = iv[0]!.shape.length;
        let ax = Number(a.axis?.i ?? 0);
        if (ax < 0) ax += r + 1;
        const one = [...iv[0]!.shape.slice(0, ax), 1, ...iv[0]!.shape.slice(ax)];
        if (allConst) {
          fold(E.concat(iv.map((v) => ({ ...v.c!, shape: one })), ax));
        } else {
          const parts = ins.map((i) => g.node('Reshape', [on(i), i64(one)], [g.uid(`${n.name}_u`)]));
          const shape = [...one];
          shape[ax] = ins.length;
          emit(n, 'Concat', parts, shape, iv[0]!.dtype, { axis: ax });
        }
        break;
      }
      case 'ConcatV2': {
        const ax0 = intsOf(ins[ins.length - 1]!)[0]!;
        const parts = iv.slice(0, -1);
        const ax = ax0 < 0 ? ax0 + parts[0]!.shape.length : ax0;
        if (parts.every((v) => v.c)) fold(E.concat(parts.map((v) => v.c!), ax));
        else {
          const shape = [...parts[0]!.shape];
          shape[ax] = parts.reduce((s, v) => s + v.shape[ax]!, 0);
          emit(n, 'Concat', ins.slice(0, -1).map(on), shape, parts[0]!.dtype, { axis: ax });
        }
        break;
      }
      case 'StridedSlice': {
        const spec = E.stridedSliceSpec(iv[0]!.shape, intsOf(ins[1]!), intsOf(ins[2]!), intsOf(ins[3]!), {
          begin: Number(a.begin_mask?.i ?? 0),
          end: Number(a.end_mask?.i ?? 0),
          shrink: Number(a.shrink_axis_mask?.i ?? 0),
          newAxis: Number(a.new_axis_mask?.i ?? 0),
          ellipsis: Number(a.ellipsis_mask?.i ?? 0),
        });
        if (iv[0]!.c) {
          fold(E.applySlice(iv[0]!.c, spec));
          break;
        }
        // ONNX Slice: a negative step's "before index 0" end is -(dim+1) after ONNX adds dim.
        const ends = spec.ends.map((e, i) => (spec.steps[i]! < 0 && e === -1 ? -iv[0]!.shape[i]! - 1 : e));
        const axes = spec.starts.map((_, i) => i);
        const sl = g.node('Slice', [on(ins[0]!), i64(spec.starts), i64(ends), i64(axes), i64(spec.steps)], [`${n.name}_slice`]);
        emit(n, 'Reshape', [sl, i64(spec.out)], spec.out, iv[0]!.dtype);
        break;
      }
      case 'GatherV2': {
        if (Number(a.batch_dims?.i ?? 0) !== 0) throw new Error(`${n.name}: batch_dims`);
        const axis = intsOf(ins[2]!)[0]!;
        const idx = iv[1]!;
        if (allConst) {
          fold(E.gather(iv[0]!.c!, idx.c!, axis));
          break;
        }
        const ax = axis < 0 ? axis + iv[0]!.shape.length : axis;
        const shape = [...iv[0]!.shape.slice(0, ax), ...idx.shape, ...iv[0]!.shape.slice(ax + 1)];
        const indices = idx.c ? i64(Array.from(idx.c.data), idx.shape) : on(ins[1]!);
        emit(n, 'Gather', [on(ins[0]!), indices], shape, iv[0]!.dtype, { axis: ax });
        break;
      }
      case 'Range': {
        const [start, limit, delta] = [intsOf(ins[0]!)[0]!, intsOf(ins[1]!)[0]!, intsOf(ins[2]!)[0]!];
        const vs: number[] = [];
        for (let v = start; delta > 0 ? v < limit : v > limit; v += delta) vs.push(v);
        fold(E.tensor(iv[0]!.dtype, [vs.length], vs));
        break;
      }
      case 'BroadcastTo': {
        const shape = intsOf(ins[1]!);
        if (iv[0]!.c && E.size(shape) <= 1 << 16) fold(E.broadcastTo(iv[0]!.c, shape));
        else emit(n, 'Expand', [on(ins[0]!), i64(shape)], shape, iv[0]!.dtype);
        break;
      }
      case 'SelectV2': {
        const shape = E.broadcastShape(...iv.map((v) => v.shape));
        if (allConst) fold(E.elementwise(iv.map((v) => v.c!), iv[1]!.dtype, (c, x, y) => (c ? x : y)));
        else emit(n, 'Where', ins.map(on), shape, iv[1]!.dtype);
        break;
      }
      case 'Sum': {
        const axes = intsOf(ins[1]!);
        const keep = !!a.keep_dims?.b;
        if (allConst) {
          fold(E.reduceSum(iv[0]!.c!, axes, keep));
          break;
        }
        const r = iv[0]!.shape.length;
        const ax = axes.map((x) => (x < 0 ? x + r : x));
        const shape = keep ? iv[0]!.shape.map((d, i) => (ax.includes(i) ? 1 : d)) : iv[0]!.shape.filter((_, i) => !ax.includes(i));
        emit(n, 'ReduceSum', [on(ins[0]!), i64(ax)], shape, iv[0]!.dtype, { keepdims: keep ? 1 : 0 });
        break;
      }
      case 'Einsum': {
        const eq = b64(a.equation.s);
        const shape = E.einsumShape(eq, iv[0]!.shape, iv[1]!.shape);
        // "…g,gf->…f" is a plain MatMul, which onnxruntime runs faster than its Einsum.
        const m = /^([a-z]*)([a-z]),\2([a-z])->\1\3$/.exec(eq);
        macs += dimsOf(eq, iv[0]!.shape, iv[1]!.shape);
        if (m && iv[1]!.shape.length === 2) emit(n, 'MatMul', [on(ins[0]!), on(ins[1]!)], shape, 'float32');
        else emit(n, 'Einsum', [on(ins[0]!), on(ins[1]!)], shape, 'float32', { equation: eq });
        break;
      }
      case 'Conv2D':
      case 'Conv2DBackpropInput': {
        if (b64(a.data_format?.s ?? 'TkhXQw==') !== 'NHWC') throw new Error(`${n.name}: data format`);
        const transposed = n.op === 'Conv2DBackpropInput';
        const x = transposed ? iv[2]! : iv[0]!;
        const xName = transposed ? ins[2]! : ins[0]!;
        const k = vals.get(transposed ? ins[1]! : ins[1]!)!.c;
        if (!k) throw new Error(`${n.name}: kernel must be constant`);
        const [kh, kw, k2, k3] = k.shape as [number, number, number, number];
        const s = ((a.strides?.list?.i ?? []) as string[]).map(Number);
        const d = ((a.dilations?.list?.i ?? ['1', '1', '1', '1']) as string[]).map(Number);
        const padding = b64(a.padding?.s ?? '');
        if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${n.name}: padding ${padding}`);
        const nchw = g.node('Transpose', [on(xName)], [`${n.name}_nchw`], { perm: [0, 3, 1, 2] });
        // Conv2D kernel HWIO → OIHW; Conv2DBackpropInput kernel HW(out)(in) → ONNX (in)(out)HW.
        const wt = E.transpose(k, transposed ? [3, 2, 0, 1] : [3, 2, 0, 1]);
        const wName = g.floatInit(`${n.name}.w`, wt.shape, wt.data as Float32Array);
        let out: number[];
        if (!transposed) {
          const r = E.convOutShape([x.shape[1]!, x.shape[2]!], [kh, kw], [s[1]!, s[2]!], [d[1]!, d[2]!], padding === 'SAME');
          out = [x.shape[0]!, r.out[0]!, r.out[1]!, k3];
          macs += E.size(out) * kh * kw * k2;
          g.node('Conv', [nchw, wName], [`${n.name}_conv`], { kernel_shape: [kh, kw], strides: [s[1]!, s[2]!], dilations: [d[1]!, d[2]!], pads: r.pads });
        } else {
          const size = intsOf(ins[0]!); // the forward conv's input = this op's output
          out = size;
          macs += E.size(x.shape) * kh * kw * k2;
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
          g.node('ConvTranspose', [nchw, wName], [`${n.name}_conv`], {
            kernel_shape: [kh, kw],
            strides: [s[1]!, s[2]!],
            dilations: [d[1]!, d[2]!],
            pads,
            output_padding: extra,
          });
        }
        emit(n, 'Transpose', [`${n.name}_conv`], out, 'float32', { perm: [0, 2, 3, 1] });
        break;
      }
      default:
        throw new Error(`unsupported TF op ${n.op} (${n.name})`);
    }
  }

  for (const o of outNames) {
    const v = vals.get(o)!;
    const name = on(o);
    if (name !== o) g.node('Identity', [name], [o]);
    g.output(o, v.shape);
  }
  if (stats) Object.assign(stats, { macs, onnxNodes: g.nodeCount });
  return g.encode(13);
}
