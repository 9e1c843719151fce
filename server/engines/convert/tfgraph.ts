/**
 * TF.js graph model (BlazeFace and facemesh from @vladmandic/human) → ONNX. Supports the ops those
 * models use: _FusedConv2D (BiasAdd[, Relu | Prelu]), DepthwiseConv2dNative, AddV2, Relu, Prelu,
 * Sigmoid, MaxPool, Pad, Reshape, Identity. A batch dimension of -1 becomes the symbolic "batch".
 * The ONNX input stays NHWC like the TF model (transposed once inside); Reshape goes back to NHWC
 * first so the flattened order matches TF.
 */
import { OnnxGraph, hwioToOihw } from './onnx.js';
import { readTfjsModel } from './tfjsWeights.js';

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped model JSON
  attr?: Record<string, any>;
}

const b64 = (s: string) => Buffer.from(s, 'base64').toString();
const dimOf = (size: string): number | string => (Number(size) < 0 ? 'batch' : Number(size));

export function convertTfGraphModel(modelJsonPath: string): { onnx: Uint8Array; outputs: string[] } {
  const { json, weights } = readTfjsModel(modelJsonPath);
  const nodes: TfNode[] = json.modelTopology.node;
  const g = new OnnxGraph('tfgraph');
  const layout = new Map<string, 'nchw' | 'flat'>();
  const ref = (s: string) => s.replace(/:0$/, '');
  const w = (name: string) => {
    const t = weights.get(name);
    if (!t) throw new Error(`missing const ${name}`);
    return t;
  };
  const intList = (n: TfNode, key: string): number[] => (n.attr?.[key]?.list?.i ?? []).map(Number);
  const samePads = (n: TfNode) => (b64(n.attr?.padding?.s ?? '') === 'SAME' ? 'SAME_UPPER' : 'VALID');
  const outputs: string[] = [];

  for (const n of nodes) {
    const ins = (n.input ?? []).map(ref);
    switch (n.op) {
      case 'Const':
        break; // consumed by the ops that use them
      case 'Placeholder': {
        const dims = n.attr!.shape.shape.dim.map((d: { size: string }) => dimOf(d.size));
        g.input(n.name, dims);
        g.node('Transpose', [n.name], [`${n.name}_nchw`], { perm: [0, 3, 1, 2] });
        layout.set(n.name, 'nchw');
        break;
      }
      case '_FusedConv2D': {
        const fused = (n.attr?.fused_ops?.list?.s ?? []).map(b64);
        if (fused[0] !== 'BiasAdd' || fused.length > 2 || (fused[1] && fused[1] !== 'Relu' && fused[1] !== 'Prelu'))
          throw new Error(`${n.name}: fused ops ${fused.join(',')}`);
        const k = w(ins[1]!);
        const [kh, kw, ci, co] = k.shape as [number, number, number, number];
        const s = intList(n, 'strides');
        const wName = g.floatInit(`${n.name}.w`, [co, ci, kh, kw], hwioToOihw(k.data as Float32Array, k.shape));
        const bName = g.floatInit(`${n.name}.b`, [co], w(ins[2]!).data as Float32Array);
        const conv = g.node('Conv', [tname(ins[0]!), wName, bName], [fused[1] ? `${n.name}_pre` : n.name], {
          kernel_shape: [kh, kw],
          strides: [s[1]!, s[2]!],
          auto_pad: samePads(n),
        });
        if (fused[1] === 'Relu') g.node('Relu', [conv], [n.name]);
        else if (fused[1] === 'Prelu') g.node('PRelu', [conv, slope(n.name, ins[3]!)], [n.name]);
        layout.set(n.name, 'nchw');
        break;
      }
      case 'DepthwiseConv2dNative': {
        const k = w(ins[1]!);
        const [kh, kw, c, m] = k.shape as [number, number, number, number];
        // HWCM → (C·M)1HW: output channel c·M+m, as in TF.
        const src = k.data as Float32Array;
        const out = new Float32Array(src.length);
        for (let y = 0; y < kh; y++)
          for (let x = 0; x < kw; x++)
            for (let ci = 0; ci < c; ci++)
              for (let mi = 0; mi < m; mi++)
                out[((ci * m + mi) * kh + y) * kw + x] = src[((y * kw + x) * c + ci) * m + mi]!;
        const s = intList(n, 'strides');
        g.node('Conv', [tname(ins[0]!), g.floatInit(`${n.name}.w`, [c * m, 1, kh, kw], out)], [n.name], {
          kernel_shape: [kh, kw],
          strides: [s[1]!, s[2]!],
          group: c,
          auto_pad: samePads(n),
        });
        layout.set(n.name, 'nchw');
        break;
      }
      case 'AddV2':
        g.node('Add', ins.map(tname), [n.name]);
        layout.set(n.name, 'nchw');
        break;
      case 'Relu':
        g.node('Relu', [tname(ins[0]!)], [n.name]);
        layout.set(n.name, 'nchw');
        break;
      case 'Prelu':
        g.node('PRelu', [tname(ins[0]!), slope(n.name, ins[1]!)], [n.name]);
        layout.set(n.name, 'nchw');
        break;
      case 'Sigmoid':
        g.node('Sigmoid', [tname(ins[0]!)], [n.name]);
        layout.set(n.name, layout.get(ins[0]!) ?? 'flat');
        break;
      case 'MaxPool': {
        const k = intList(n, 'ksize');
        const s = intList(n, 'strides');
        g.node('MaxPool', [tname(ins[0]!)], [n.name], {
          kernel_shape: [k[1]!, k[2]!],
          strides: [s[1]!, s[2]!],
          auto_pad: samePads(n),
        });
        layout.set(n.name, 'nchw');
        break;
      }
      case 'Pad': {
        const p = Array.from(w(ins[1]!).data); // [[n0,n1],[h0,h1],[w0,w1],[c0,c1]] in NHWC
        const pads = [p[0]!, p[6]!, p[2]!, p[4]!, p[1]!, p[7]!, p[3]!, p[5]!];
        g.node('Pad', [tname(ins[0]!), g.int64Init(`${n.name}.pads`, pads)], [n.name], { mode: 'constant' });
        layout.set(n.name, 'nchw');
        break;
      }
      case 'Reshape': {
        const shape = Array.from(w(ins[1]!).data);
        const src =
          layout.get(ins[0]!) === 'nchw'
            ? g.node('Transpose', [tname(ins[0]!)], [`${n.name}_nhwc`], { perm: [0, 2, 3, 1] })
            : tname(ins[0]!);
        g.node('Reshape', [src, g.int64Init(`${n.name}.shape`, shape)], [n.name]);
        layout.set(n.name, 'flat');
        break;
      }
      case 'Identity': {
        g.node('Identity', [tname(ins[0]!)], [n.name]);
        layout.set(n.name, layout.get(ins[0]!) ?? 'flat');
        // signature outputs are keyed by tensor name (BlazeFace) or by a layer name with the tensor in .name (facemesh)
        const sigs = Object.values({ ...json.userDefinedMetadata?.signature?.outputs, ...json.signature?.outputs }) as {
          name: string;
          tensorShape: { dim: { size: string }[] };
        }[];
        const sig = sigs.find((o) => o.name === `${n.name}:0`);
        if (sig) {
          g.output(
            n.name,
            sig.tensorShape.dim.map((d) => dimOf(d.size)),
          );
          outputs.push(n.name);
        }
        break;
      }
      default:
        throw new Error(`unsupported TF op ${n.op} (${n.name})`);
    }
  }
  if (outputs.length === 0) throw new Error('graph model has no signature outputs');
  return { onnx: g.encode(), outputs };

  /** PRelu slope from a TF alpha of shape [..., C], reshaped to [C, 1, 1] to broadcast over NCHW. */
  function slope(node: string, alphaName: string): string {
    const a = w(alphaName);
    const c = a.shape[a.shape.length - 1]!;
    if (a.data.length !== c) throw new Error(`${node}: PRelu alpha of shape ${a.shape.join('×')} is not per channel`);
    return g.floatInit(`${node}.alpha`, [c, 1, 1], Float32Array.from(a.data as ArrayLike<number>));
  }

  function tname(name: string): string {
    return layout.get(name) === 'nchw' && nodes.find((x) => x.name === name)?.op === 'Placeholder'
      ? `${name}_nchw`
      : name;
  }
}
