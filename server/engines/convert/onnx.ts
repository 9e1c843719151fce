/**
 * A minimal ONNX writer: the subset of onnx.proto (ModelProto, GraphProto, NodeProto, …) our
 * converters emit, described for protobufjs, plus a small graph builder.
 * Field numbers follow https://github.com/onnx/onnx/blob/main/onnx/onnx.proto (IR version 8).
 */
import protobuf from 'protobufjs';

const ONNX_DESCRIPTOR = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            floats: { rule: 'repeated', type: 'float', id: 7 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            type: { type: 'int32', id: 20 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            domain: { type: 'string', id: 7 },
          },
        },
        StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            modelVersion: { type: 'int64', id: 5 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            metadataProps: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            docString: { type: 'string', id: 10 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
          },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
          },
        },
        TypeProto: {
          fields: { tensorType: { type: 'Tensor', id: 1 } },
          nested: {
            Tensor: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(ONNX_DESCRIPTOR);
const ModelProto = root.lookupType('onnx.ModelProto');

export const DT_FLOAT = 1;
export const DT_INT32 = 6;
export const DT_INT64 = 7;
export const DT_BOOL = 9;
const AT = { FLOAT: 1, INT: 2, STRING: 3, FLOATS: 6, INTS: 7 } as const;

export type AttrValue = number | string | number[] | { float: number } | { floats: number[] };
type Dim = number | string;

interface Tensor {
  name: string;
  dims: number[];
  dataType: number;
  rawData: Uint8Array;
}

/** Builds one ONNX graph node by node; `encode()` returns the serialized ModelProto. */
export class OnnxGraph {
  private nodes: object[] = [];
  private inits: Tensor[] = [];
  private inputs: object[] = [];
  private outputs: object[] = [];
  private counter = 0;

  constructor(private name: string) {}

  get nodeCount(): number {
    return this.nodes.length;
  }

  uid(prefix: string): string {
    return `${prefix}_${this.counter++}`;
  }

  input(name: string, dims: Dim[]): void {
    this.inputs.push(valueInfo(name, dims));
  }

  output(name: string, dims: Dim[]): void {
    this.outputs.push(valueInfo(name, dims));
  }

  floatInit(name: string, dims: number[], data: Float32Array): string {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.inits.push({ name, dims, dataType: DT_FLOAT, rawData: Uint8Array.from(bytes) });
    return name;
  }

  /** An initializer of any element type from its little-endian bytes (DT_* codes of onnx.proto). */
  rawInit(name: string, dims: number[], dataType: number, bytes: Uint8Array): string {
    this.inits.push({ name, dims, dataType, rawData: Uint8Array.from(bytes) });
    return name;
  }

  int64Init(name: string, values: number[]): string {
    const data = BigInt64Array.from(values.map((v) => BigInt(v)));
    this.inits.push({ name, dims: [values.length], dataType: DT_INT64, rawData: new Uint8Array(data.buffer) });
    return name;
  }

  node(opType: string, inputs: string[], outputs: string[], attrs: Record<string, AttrValue> = {}): string {
    const attribute = Object.entries(attrs).map(([name, v]) => attr(name, v));
    this.nodes.push({ opType, input: inputs, output: outputs, name: this.uid(opType), attribute });
    return outputs[0]!;
  }

  encode(opset = 13): Uint8Array {
    const msg = ModelProto.create({
      irVersion: 8,
      producerName: 'pixmill-convert',
      producerVersion: '1',
      opsetImport: [{ domain: '', version: opset }],
      graph: { name: this.name, node: this.nodes, initializer: this.inits, input: this.inputs, output: this.outputs },
    });
    return ModelProto.encode(msg).finish();
  }
}

function valueInfo(name: string, dims: Dim[]) {
  return {
    name,
    type: {
      tensorType: {
        elemType: DT_FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function attr(name: string, v: AttrValue) {
  if (typeof v === 'number') return { name, type: AT.INT, i: v };
  if (typeof v === 'string') return { name, type: AT.STRING, s: Buffer.from(v) };
  if (Array.isArray(v)) return { name, type: AT.INTS, ints: v };
  if ('float' in v) return { name, type: AT.FLOAT, f: v.float };
  return { name, type: AT.FLOATS, floats: v.floats };
}

/** TF HWIO (Conv2D kernel) → ONNX OIHW. */
export function hwioToOihw(w: Float32Array, [h, wd, i, o]: number[]): Float32Array {
  const out = new Float32Array(w.length);
  for (let y = 0; y < h!; y++)
    for (let x = 0; x < wd!; x++)
      for (let ci = 0; ci < i!; ci++)
        for (let co = 0; co < o!; co++) out[((co * i! + ci) * h! + y) * wd! + x] = w[((y * wd! + x) * i! + ci) * o! + co]!;
  return out;
}
