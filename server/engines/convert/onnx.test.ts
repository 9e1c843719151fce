import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { OnnxGraph } from './onnx.js';

describe('OnnxGraph', () => {
  it('writes a model onnxruntime runs: initializers of both types, symbolic dims and every attribute kind', async () => {
    const g = new OnnxGraph('writer-probe');
    g.input('x', [1, 1, 1, 'W']);
    // Conv 1×1: 2x + 1 (ints, string and int attributes)
    const conv = g.node(
      'Conv',
      ['x', g.floatInit('w', [1, 1, 1, 1], Float32Array.of(2)), g.floatInit('b', [1], Float32Array.of(1))],
      ['conv'],
      {
        kernel_shape: [1, 1],
        auto_pad: 'NOTSET',
        group: 1,
      },
    );
    const leaky = g.node('LeakyRelu', [conv], ['leaky'], { alpha: { float: 0.5 } });
    const flat = g.node('Reshape', [leaky, g.int64Init('shape', [-1])], ['flat']);
    const offsets = g.node('Constant', [], ['offsets'], { value_floats: { floats: [1, 2.5] } });
    g.node('Add', [flat, offsets], ['y']);
    g.output('y', ['W']);

    const session = await ort.InferenceSession.create(g.encode());
    const { y } = await session.run({ x: new ort.Tensor('float32', Float32Array.of(-2, 1), [1, 1, 1, 2]) });
    // (−2·2+1)·0.5 + 1 = −0.5; (1·2+1) + 2.5 = 5.5
    expect(Array.from(y!.data as Float32Array)).toEqual([-0.5, 5.5]);
    expect(y!.dims).toEqual([2]);
  });
});
