/**
 * Small-tensor TF op semantics in plain JS, for constant folding at conversion time: once the input
 * size is fixed, a jax2tf graph's shape logic (Shape → StridedSlice → Pack → Reshape, Range-built
 * resize matrices, weight transposes) is evaluated here and lands in the ONNX file as constants.
 * The same helpers give the static output shapes of the ops the converter emits.
 */

export type DType = 'float32' | 'int32' | 'bool';
type Data = Float32Array | Int32Array | Uint8Array;

export interface Tensor {
  shape: number[];
  dtype: DType;
  data: Data;
}

export const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

function alloc(dtype: DType, n: number): Data {
  return dtype === 'float32' ? new Float32Array(n) : dtype === 'int32' ? new Int32Array(n) : new Uint8Array(n);
}

export function tensor(dtype: DType, shape: number[], values: ArrayLike<number>): Tensor {
  const data = alloc(dtype, size(shape));
  for (let i = 0; i < data.length; i++) data[i] = values[i]!;
  return { dtype, shape, data };
}

function strides(shape: number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i]!;
  }
  return s;
}

export function broadcastShape(...shapes: number[][]): number[] {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    let d = 1;
    for (const s of shapes) {
      const v = s[s.length - rank + i] ?? 1;
      if (v !== 1) {
        if (d !== 1 && d !== v) throw new Error(`incompatible broadcast ${JSON.stringify(shapes)}`);
        d = v;
      }
    }
    out.push(d);
  }
  return out;
}

/** Index into `t` for each element of `outShape` under numpy broadcasting. */
function broadcastIndex(shape: number[], outShape: number[]): Int32Array {
  const n = size(outShape);
  const idx = new Int32Array(n);
  const rank = outShape.length;
  const st = strides(shape);
  const os = strides(outShape);
  for (let i = 0; i < n; i++) {
    let r = i;
    let j = 0;
    for (let d = 0; d < rank; d++) {
      const c = Math.floor(r / os[d]!);
      r -= c * os[d]!;
      const sd = d - (rank - shape.length);
      if (sd >= 0 && shape[sd] !== 1) j += c * st[sd]!;
    }
    idx[i] = j;
  }
  return idx;
}

export function elementwise(ts: Tensor[], dtype: DType, fn: (...v: number[]) => number): Tensor {
  const shape = broadcastShape(...ts.map((t) => t.shape));
  const idx = ts.map((t) =>
    size(t.shape) === size(shape) && t.shape.length === shape.length ? null : broadcastIndex(t.shape, shape),
  );
  const out = alloc(dtype, size(shape));
  const args = new Array<number>(ts.length);
  for (let i = 0; i < out.length; i++) {
    for (let k = 0; k < ts.length; k++) args[k] = ts[k]!.data[idx[k] ? idx[k]![i]! : i]!;
    out[i] = fn(...args);
  }
  return { shape, dtype, data: out };
}

export function transpose(t: Tensor, perm: number[]): Tensor {
  const shape = perm.map((p) => t.shape[p]!);
  const st = strides(t.shape);
  const pst = perm.map((p) => st[p]!);
  const out = alloc(t.dtype, t.data.length);
  const rank = shape.length;
  const c = new Array<number>(rank).fill(0);
  for (let i = 0; i < out.length; i++) {
    let j = 0;
    for (let d = 0; d < rank; d++) j += c[d]! * pst[d]!;
    out[i] = t.data[j]!;
    for (let d = rank - 1; d >= 0; d--) {
      if (++c[d]! < shape[d]!) break;
      c[d] = 0;
    }
  }
  return { shape, dtype: t.dtype, data: out };
}

export function reshapeDims(inShape: number[], req: number[]): number[] {
  const known = req.filter((d) => d !== -1).reduce((a, b) => a * b, 1);
  return req.map((d) => (d === -1 ? size(inShape) / known : d));
}

/** TF StridedSlice resolved for a static shape: per input dim start/end/step, then the output shape. */
export interface SliceSpec {
  starts: number[];
  ends: number[];
  steps: number[];
  /** shape after slicing, before shrink/new axes */
  sliced: number[];
  out: number[];
}

export function stridedSliceSpec(
  shape: number[],
  begin: number[],
  end: number[],
  stride: number[],
  m: { begin: number; end: number; shrink: number; newAxis: number; ellipsis: number },
): SliceSpec {
  // Expand the sparse spec (ellipsis, new axes) into one entry per input dim.
  const dims: { b: number; e: number; s: number; bm: boolean; em: boolean; shrink: boolean }[] = [];
  const out: number[] = [];
  const newAt: number[] = [];
  let d = 0;
  for (let i = 0; i < begin.length; i++) {
    if (m.ellipsis & (1 << i)) {
      const rest = begin.length - i - 1 - countBits(m.newAxis >> (i + 1));
      for (; d < shape.length - rest; d++) dims.push({ b: 0, e: 0, s: 1, bm: true, em: true, shrink: false });
      continue;
    }
    if (m.newAxis & (1 << i)) {
      newAt.push(dims.length);
      continue;
    }
    dims.push({
      b: begin[i]!,
      e: end[i]!,
      s: stride[i]!,
      bm: !!(m.begin & (1 << i)),
      em: !!(m.end & (1 << i)),
      shrink: !!(m.shrink & (1 << i)),
    });
    d++;
  }
  while (dims.length < shape.length) dims.push({ b: 0, e: 0, s: 1, bm: true, em: true, shrink: false });
  const starts: number[] = [];
  const ends: number[] = [];
  const steps: number[] = [];
  const sliced: number[] = [];
  dims.forEach((x, i) => {
    const n = shape[i]!;
    newAt.filter((p) => p === i).forEach(() => out.push(1));
    if (x.shrink) {
      const b = x.b < 0 ? x.b + n : x.b;
      starts.push(b);
      ends.push(b + 1);
      steps.push(1);
      sliced.push(1);
      return;
    }
    const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
    let b: number;
    let e: number;
    if (x.s > 0) {
      b = x.bm ? 0 : clamp(x.b < 0 ? x.b + n : x.b, 0, n);
      e = x.em ? n : clamp(x.e < 0 ? x.e + n : x.e, 0, n);
    } else {
      b = x.bm ? n - 1 : clamp(x.b < 0 ? x.b + n : x.b, -1, n - 1);
      e = x.em ? -1 : clamp(x.e < 0 ? x.e + n : x.e, -1, n - 1);
    }
    const len = Math.max(0, Math.ceil((e - b) / x.s));
    starts.push(b);
    ends.push(e);
    steps.push(x.s);
    sliced.push(len);
    out.push(len);
  });
  newAt.filter((p) => p >= dims.length).forEach(() => out.push(1));
  return { starts, ends, steps, sliced, out };
}

function countBits(v: number): number {
  let c = 0;
  for (; v; v >>= 1) c += v & 1;
  return c;
}

export function applySlice(t: Tensor, spec: SliceSpec): Tensor {
  const n = size(spec.sliced);
  const out = alloc(t.dtype, n);
  const st = strides(t.shape);
  const rank = t.shape.length;
  const c = new Array<number>(rank).fill(0);
  for (let i = 0; i < n; i++) {
    let j = 0;
    for (let d = 0; d < rank; d++) j += (spec.starts[d]! + c[d]! * spec.steps[d]!) * st[d]!;
    out[i] = t.data[j]!;
    for (let d = rank - 1; d >= 0; d--) {
      if (++c[d]! < spec.sliced[d]!) break;
      c[d] = 0;
    }
  }
  return { shape: spec.out, dtype: t.dtype, data: out };
}

export function concat(ts: Tensor[], axis: number): Tensor {
  const rank = ts[0]!.shape.length;
  const ax = axis < 0 ? axis + rank : axis;
  const shape = [...ts[0]!.shape];
  shape[ax] = ts.reduce((a, t) => a + t.shape[ax]!, 0);
  const outer = size(shape.slice(0, ax));
  const out = alloc(ts[0]!.dtype, size(shape));
  let o = 0;
  for (let i = 0; i < outer; i++)
    for (const t of ts) {
      const inner = size(t.shape.slice(ax));
      out.set(t.data.subarray(i * inner, (i + 1) * inner) as never, o);
      o += inner;
    }
  return { shape, dtype: ts[0]!.dtype, data: out };
}

export function gather(t: Tensor, indices: Tensor, axis: number): Tensor {
  const ax = axis < 0 ? axis + t.shape.length : axis;
  const outer = size(t.shape.slice(0, ax));
  const inner = size(t.shape.slice(ax + 1));
  const n = t.shape[ax]!;
  const shape = [...t.shape.slice(0, ax), ...indices.shape, ...t.shape.slice(ax + 1)];
  const out = alloc(t.dtype, size(shape));
  let o = 0;
  for (let i = 0; i < outer; i++)
    for (let k = 0; k < indices.data.length; k++) {
      const src = (i * n + indices.data[k]!) * inner;
      out.set(t.data.subarray(src, src + inner) as never, o);
      o += inner;
    }
  return { shape, dtype: t.dtype, data: out };
}

export function reduceSum(t: Tensor, axes: number[], keep: boolean): Tensor {
  const ax = axes.map((a) => (a < 0 ? a + t.shape.length : a));
  const full = t.shape.map((d, i) => (ax.includes(i) ? 1 : d));
  const shape = keep ? full : t.shape.filter((_, i) => !ax.includes(i));
  const idx = broadcastIndex(full, t.shape); // maps each input element to its output slot
  const out = alloc(t.dtype, size(full));
  for (let i = 0; i < t.data.length; i++) out[idx[i]!]! += t.data[i]!;
  return { shape, dtype: t.dtype, data: out };
}

export function broadcastTo(t: Tensor, shape: number[]): Tensor {
  const idx = broadcastIndex(t.shape, shape);
  const out = alloc(t.dtype, size(shape));
  for (let i = 0; i < out.length; i++) out[i] = t.data[idx[i]!]!;
  return { shape, dtype: t.dtype, data: out };
}

/** Output shape of a two-operand einsum equation such as "abcg,gf->abcf". */
export function einsumShape(eq: string, a: number[], b: number[]): number[] {
  const [lhs, out] = eq.split('->') as [string, string];
  const [ea, eb] = lhs.split(',') as [string, string];
  const dim = new Map<string, number>();
  [...ea].forEach((c, i) => dim.set(c, a[i]!));
  [...eb].forEach((c, i) => dim.set(c, b[i]!));
  return [...out].map((c) => dim.get(c)!);
}

export function convOutShape(
  inHW: number[],
  k: number[],
  s: number[],
  d: number[],
  same: boolean,
): { out: number[]; pads: number[] } {
  const out: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < 2; i++) {
    const ek = (k[i]! - 1) * d[i]! + 1;
    if (same) {
      const o = Math.ceil(inHW[i]! / s[i]!);
      const total = Math.max((o - 1) * s[i]! + ek - inHW[i]!, 0);
      out.push(o);
      before.push(Math.floor(total / 2));
      after.push(total - Math.floor(total / 2));
    } else {
      out.push(Math.floor((inHW[i]! - ek) / s[i]!) + 1);
      before.push(0);
      after.push(0);
    }
  }
  return { out, pads: [...before, ...after] };
}
