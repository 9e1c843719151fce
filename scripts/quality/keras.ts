/**
 * Keras layers model (TF.js "layers-model", as shipped by @upscalerjs/esrgan-*) → ONNX.
 * NHWC → NCHW: kernels HWIO→OIHW, Concatenate axis 3→1, UpSampling2D → Resize(nearest),
 * PixelShuffle (depth_to_space) → DepthToSpace(DCR), MultiplyBeta → Mul 0.2.
 * The ONNX model always takes and returns NCHW float pixels in 0..255: a model trained on 0..1
 * gets the scaling baked in, so every ESRGAN file has the same interface.
 */
import { OnnxGraph, hwioToOihw } from '../../server/engines/convert/onnx.js';
import { readTfjsModel } from '../../server/engines/convert/tfjsWeights.js';

interface KerasLayer {
  class_name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped model JSON
  config: Record<string, any>;
  inbound_nodes: [string, number, number, object][][];
}

export function convertKerasModel(modelJsonPath: string, inputRange: 1 | 255): Uint8Array {
  const { json, weights } = readTfjsModel(modelJsonPath);
  const topo = json.modelTopology.model_config ?? json.modelTopology;
  const layers: KerasLayer[] = topo.config.layers;
  const outName: string = topo.config.output_layers[0][0];
  const g = new OnnxGraph('esrgan');
  g.input('input', ['N', 3, 'H', 'W']);
  const weight = (name: string) => {
    const w = weights.get(name);
    if (!w) throw new Error(`missing weight ${name}`);
    return w;
  };
  const tensorOf = new Map<string, string>();
  // UpSampling2D(nearest, s) followed only by a stride-1 'same' Conv2D is rewritten as a conv at
  // low resolution with s² output phases + DepthToSpace: the same numbers, without ever building
  // the wide high-resolution activation (x8 became several times faster).
  const fused = new Map<string, { scale: number; input: string }>();
  for (const u of layers) {
    if (u.class_name !== 'UpSampling2D') continue;
    const [sh, sw] = u.config.size as [number, number];
    const users = layers.filter((l) => l.inbound_nodes[0]?.some(([n]) => n === u.config.name));
    const c = users[0];
    if (
      sh !== sw ||
      (u.config.interpolation ?? 'nearest') !== 'nearest' ||
      users.length !== 1 ||
      c!.class_name !== 'Conv2D'
    )
      continue;
    if (
      c!.config.padding !== 'same' ||
      c!.config.strides.some((v: number) => v !== 1) ||
      c!.config.dilation_rate.some((v: number) => v !== 1)
    )
      continue;
    if (u.config.name === outName) continue;
    fused.set(u.config.name, { scale: sh, input: u.inbound_nodes[0]![0]![0] });
  }
  const src = (l: KerasLayer) =>
    l.inbound_nodes[0]!.map(([n]) => {
      const t = tensorOf.get(n);
      if (!t) throw new Error(`layer input ${n} not converted yet`);
      return t;
    });
  for (const l of layers) {
    const name: string = l.config.name;
    const c = l.config;
    switch (l.class_name) {
      case 'InputLayer':
        tensorOf.set(name, inputRange === 1 ? g.node('Mul', ['input', scalar(g, 1 / 255)], [g.uid('in01')]) : 'input');
        break;
      case 'Conv2D': {
        const up = fused.get(l.inbound_nodes[0]![0]![0]);
        if (up) {
          tensorOf.set(
            name,
            activation(
              g,
              subPixelConv(
                g,
                name,
                weight(`${name}/kernel`),
                c.use_bias ? weight(`${name}/bias`) : undefined,
                tensorOf.get(up.input)!,
                up.scale,
              ),
              c.activation,
              name,
            ),
          );
          break;
        }
        if (c.data_format !== 'channels_last') throw new Error(`${name}: data_format ${c.data_format}`);
        if (c.strides.some((s: number) => s !== 1) || c.dilation_rate.some((s: number) => s !== 1))
          throw new Error(`${name}: only stride 1 / dilation 1 supported`);
        const k = weight(`${name}/kernel`);
        const [kh, kw] = k.shape as [number, number];
        if (c.padding === 'same' && (kh % 2 === 0 || kw % 2 === 0))
          throw new Error(`${name}: even kernel with same padding`);
        const p = c.padding === 'same' ? [kh >> 1, kw >> 1, kh >> 1, kw >> 1] : [0, 0, 0, 0];
        const [, , ci, co] = k.shape;
        const inputs = [
          src(l)[0]!,
          g.floatInit(`${name}.w`, [co!, ci!, kh, kw], hwioToOihw(k.data as Float32Array, k.shape)),
        ];
        if (c.use_bias) inputs.push(g.floatInit(`${name}.b`, [co!], weight(`${name}/bias`).data as Float32Array));
        let out = g.node('Conv', inputs, [name], {
          kernel_shape: [kh, kw],
          pads: p,
          strides: [1, 1],
          dilations: [1, 1],
          group: 1,
        });
        out = activation(g, out, c.activation, name);
        tensorOf.set(name, out);
        break;
      }
      case 'Activation':
        tensorOf.set(name, activation(g, src(l)[0]!, c.activation, name));
        break;
      case 'Concatenate': {
        if (c.axis !== 3 && c.axis !== -1) throw new Error(`${name}: concat axis ${c.axis}`);
        tensorOf.set(name, g.node('Concat', src(l), [name], { axis: 1 }));
        break;
      }
      case 'Add': {
        const ins = src(l);
        tensorOf.set(name, g.node(ins.length === 2 ? 'Add' : 'Sum', ins, [name]));
        break;
      }
      case 'UpSampling2D': {
        if (fused.has(name)) break; // folded into the next convolution
        if (c.interpolation && c.interpolation !== 'nearest') throw new Error(`${name}: ${c.interpolation}`);
        const [sh, sw] = c.size as [number, number];
        const scales = g.floatInit(`${name}.scales`, [4], Float32Array.from([1, 1, sh, sw]));
        tensorOf.set(
          name,
          g.node('Resize', [src(l)[0]!, '', scales], [name], {
            mode: 'nearest',
            coordinate_transformation_mode: 'asymmetric',
            nearest_mode: 'floor',
          }),
        );
        break;
      }
      case 'MultiplyBeta':
        tensorOf.set(name, g.node('Mul', [src(l)[0]!, scalar(g, 0.2)], [name]));
        break;
      default: {
        const m = /^PixelShuffle(\d)x$/.exec(l.class_name);
        if (!m) throw new Error(`unsupported Keras layer ${l.class_name} (${name})`);
        tensorOf.set(name, g.node('DepthToSpace', [src(l)[0]!], [name], { blocksize: Number(m[1]), mode: 'DCR' }));
      }
    }
  }
  let out = tensorOf.get(outName)!;
  if (inputRange === 1) out = g.node('Mul', [out, scalar(g, 255)], [g.uid('out255')]);
  g.node('Identity', [out], ['output']);
  g.output('output', ['N', 3, 'OH', 'OW']);
  return g.encode();
}

/** Conv(k×k, same) ∘ nearest-upsample(s) ≡ DepthToSpace(s) ∘ Conv at low resolution with s² phases. */
function subPixelConv(
  g: OnnxGraph,
  name: string,
  k: { shape: number[]; data: Float32Array | Int32Array },
  b: { data: Float32Array | Int32Array } | undefined,
  x: string,
  s: number,
): string {
  const [kh, kw, ci, co] = k.shape as [number, number, number, number];
  const rh = kh >> 1,
    rw = kw >> 1;
  const Rh = Math.ceil(rh / s),
    Rw = Math.ceil(rw / s);
  const KH = 2 * Rh + 1,
    KW = 2 * Rw + 1;
  const O = co * s * s;
  const w = new Float32Array(O * ci * KH * KW);
  const src = k.data as Float32Array;
  for (let i = 0; i < s; i++)
    for (let j = 0; j < s; j++)
      for (let dy = -rh; dy <= rh; dy++)
        for (let dx = -rw; dx <= rw; dx++) {
          const oy = Math.floor((i + dy) / s) + Rh,
            ox = Math.floor((j + dx) / s) + Rw;
          for (let c = 0; c < ci; c++)
            for (let o = 0; o < co; o++) {
              const oc = (i * s + j) * co + o; // DCR order, as DepthToSpace expects
              w[((oc * ci + c) * KH + oy) * KW + ox]! += src[(((dy + rh) * kw + (dx + rw)) * ci + c) * co + o]!;
            }
        }
  const inputs = [x, g.floatInit(`${name}.w`, [O, ci, KH, KW], w)];
  if (b) {
    const bias = new Float32Array(O);
    for (let p = 0; p < s * s; p++) for (let o = 0; o < co; o++) bias[p * co + o] = (b.data as Float32Array)[o]!;
    inputs.push(g.floatInit(`${name}.b`, [O], bias));
  }
  const lr = g.node('Conv', inputs, [`${name}_phases`], {
    kernel_shape: [KH, KW],
    pads: [Rh, Rw, Rh, Rw],
    strides: [1, 1],
    dilations: [1, 1],
    group: 1,
  });
  return g.node('DepthToSpace', [lr], [name], { blocksize: s, mode: 'DCR' });
}

function activation(g: OnnxGraph, x: string, act: string | undefined, name: string): string {
  if (!act || act === 'linear') return x;
  if (act === 'relu') return g.node('Relu', [x], [`${name}_relu`]);
  throw new Error(`${name}: activation ${act}`);
}

function scalar(g: OnnxGraph, v: number): string {
  return g.floatInit(g.uid('const'), [], Float32Array.of(v));
}
