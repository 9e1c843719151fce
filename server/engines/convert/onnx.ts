/**
 * A minimal ONNX writer: the subset of onnx.proto (ModelProto, GraphProto, NodeProto, …) our
 * converters emit, parsed by protobufjs, plus a small graph builder.
 * Field numbers follow https://github.com/onnx/onnx/blob/main/onnx/onnx.proto (IR version 8).
 */
import protobuf from 'protobufjs';

/**
 * The messages and fields the converters write, with onnx.proto's names and numbers (protobufjs reads
 * the snake_case names as camelCase: `op_type` is `opType`). Read as proto3, as the writer always has:
 * repeated numbers are packed and a field at its default (an empty domain) is left out, both of which
 * ONNX readers take. TypeProto and TensorShapeProto.Dimension keep only the tensor and value
 * alternatives of their oneofs.
 */
const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message AttributeProto { string name = 1; float f = 2; int64 i = 3; bytes s = 4; TensorProto t = 5; repeated float floats = 7; repeated int64 ints = 8; int32 type = 20; }
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message NodeProto { repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4; repeated AttributeProto attribute = 5; string domain = 7; }
message StringStringEntryProto { string key = 1; string value = 2; }
message ModelProto { int64 ir_version = 1; string producer_name = 2; string producer_version = 3; string domain = 4; int64 model_version = 5; string doc_string = 6; GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8; repeated StringStringEntryProto metadata_props = 14; }
message GraphProto { repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5; string doc_string = 10; repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12; }
message TensorProto { repeated int64 dims = 1; int32 data_type = 2; string name = 8; bytes raw_data = 9; }
message TensorShapeProto { message Dimension { int64 dim_value = 1; string dim_param = 2; } repeated Dimension dim = 1; }
message TypeProto { message Tensor { int32 elem_type = 1; TensorShapeProto shape = 2; } Tensor tensor_type = 1; }
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
`;

const { root } = protobuf.parse(ONNX_PROTO);
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
