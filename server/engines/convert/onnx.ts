/**
 * A minimal ONNX writer: the subset of onnx.proto (ModelProto, GraphProto, NodeProto, …) our
 * converters emit, parsed by protobufjs, plus a small graph builder.
 * Field numbers follow https://github.com/onnx/onnx/blob/main/onnx/onnx.proto (IR version 8).
 */
import protobuf from 'protobufjs';

/**
 * The messages and fields of onnx.proto that our converters write and that the files we read back
 * (torch exports, for the int8 quantizer) carry, with onnx.proto's names and numbers (protobufjs reads
 * the snake_case names as camelCase: `op_type` is `opType`). Read as proto3, as the writer always has:
 * repeated numbers are packed and a field at its default (an empty domain) is left out, both of which
 * ONNX readers take. TypeProto and TensorShapeProto.Dimension keep only the tensor and value
 * alternatives of their oneofs; fields outside this list are dropped on reading (readModel fails on a
 * file whose graph uses what it would lose: subgraphs, sparse or external tensors).
 */
const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message AttributeProto { string name = 1; float f = 2; int64 i = 3; bytes s = 4; TensorProto t = 5; GraphProto g = 6; repeated float floats = 7; repeated int64 ints = 8; repeated bytes strings = 9; repeated TensorProto tensors = 10; repeated GraphProto graphs = 11; string doc_string = 13; int32 type = 20; string ref_attr_name = 21; }
message ValueInfoProto { string name = 1; TypeProto type = 2; string doc_string = 3; }
message NodeProto { repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4; repeated AttributeProto attribute = 5; string doc_string = 6; string domain = 7; }
message StringStringEntryProto { string key = 1; string value = 2; }
message ModelProto { int64 ir_version = 1; string producer_name = 2; string producer_version = 3; string domain = 4; int64 model_version = 5; string doc_string = 6; GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8; repeated StringStringEntryProto metadata_props = 14; }
message GraphProto { repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5; string doc_string = 10; repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12; repeated ValueInfoProto value_info = 13; repeated bytes sparse_initializer = 15; }
message TensorProto { repeated int64 dims = 1; int32 data_type = 2; repeated float float_data = 4; repeated int32 int32_data = 5; repeated int64 int64_data = 7; string name = 8; bytes raw_data = 9; repeated double double_data = 10; repeated StringStringEntryProto external_data = 13; int32 data_location = 14; }
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
        for (let co = 0; co < o!; co++)
          out[((co * i! + ci) * h! + y) * wd! + x] = w[((y * wd! + x) * i! + ci) * o! + co]!;
  return out;
}

/** A tensor of a model read back, its data always as little-endian bytes. */
export interface ModelTensor {
  name: string;
  dims: number[];
  dataType: number;
  rawData: Uint8Array;
}

/** A node of a model read back; attributes are kept as decoded and written back unchanged. */
export interface ModelNode {
  opType: string;
  input: string[];
  output: string[];
  name?: string;
  domain?: string;
  attribute?: ({
    name: string;
    type?: number;
    i?: number;
    ints?: number[];
    f?: number;
    floats?: number[];
    s?: Uint8Array;
  } & Record<string, unknown>)[];
}

/** A model read back by readModel: the graph's nodes, initializers and the rest of ModelProto as decoded. */
export interface OnnxModel {
  opsetImport: { domain?: string; version: number }[];
  graph: {
    name?: string;
    node: ModelNode[];
    initializer: ModelTensor[];
    input: object[];
    output: object[];
    valueInfo?: object[];
  } & Record<string, unknown>;
  [field: string]: unknown;
}

/** Bytes per element of the numeric types a tensor's typed fields can hold, by onnx.proto data type. */
const typedFields: Record<
  number,
  {
    field: 'floatData' | 'int32Data' | 'int64Data' | 'doubleData';
    bytes: number;
    write: (v: DataView, o: number, x: number) => void;
  }
> = {
  [DT_FLOAT]: { field: 'floatData', bytes: 4, write: (v, o, x) => v.setFloat32(o, x, true) },
  [DT_INT32]: { field: 'int32Data', bytes: 4, write: (v, o, x) => v.setInt32(o, x, true) },
  [DT_INT64]: { field: 'int64Data', bytes: 8, write: (v, o, x) => v.setBigInt64(o, BigInt(x), true) },
  11: { field: 'doubleData', bytes: 8, write: (v, o, x) => v.setFloat64(o, x, true) },
};

/** A tensor with its data moved into raw_data (the quantizer reads and writes only bytes). */
function toRaw(t: Record<string, unknown>): ModelTensor {
  if ((t.externalData as unknown[] | undefined)?.length || t.dataLocation)
    throw new Error(`tensor ${String(t.name)} is stored outside the model file`);
  const dims = ((t.dims as number[] | undefined) ?? []).map(Number);
  const dataType = Number(t.dataType ?? 0);
  let raw = t.rawData as Uint8Array | undefined;
  const typed = typedFields[dataType];
  const values = typed ? (t[typed.field] as number[] | undefined) : undefined;
  if ((!raw || raw.length === 0) && values?.length && typed) {
    raw = new Uint8Array(values.length * typed.bytes);
    const view = new DataView(raw.buffer);
    values.forEach((x, k) => typed.write(view, k * typed.bytes, Number(x)));
  }
  return { name: String(t.name ?? ''), dims, dataType, rawData: Uint8Array.from(raw ?? []) };
}

/** Reads an ONNX model into plain objects; initializers and Constant tensors get their data as raw bytes. */
export function readModel(bytes: Uint8Array): OnnxModel {
  const obj = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, arrays: true }) as OnnxModel;
  const g = obj.graph;
  if ((g.sparseInitializer as unknown[] | undefined)?.length) throw new Error('sparse initializers are not supported');
  g.initializer = g.initializer.map((t) => toRaw(t as unknown as Record<string, unknown>));
  for (const n of g.node)
    for (const a of n.attribute ?? []) {
      if (a.g || (a.graphs as unknown[] | undefined)?.length)
        throw new Error(`${n.opType} carries a subgraph, which readModel does not keep`);
      if (a.t) a.t = toRaw(a.t as Record<string, unknown>);
    }
  return obj;
}

/** Writes a model read by readModel (and changed) back to bytes. */
export function writeModel(model: OnnxModel): Uint8Array {
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}
