/**
 * A small Adobe Photoshop (PSD, version 1) writer: 8-bit RGB, raw (uncompressed) channel data,
 * any number of full-canvas layers plus the flattened composite. Spec: Adobe "Photoshop File
 * Formats Specification", sections File Header, Layer and Mask Information, Image Data.
 */
export interface PsdLayer {
  name: string;
  /** interleaved RGB, width×height×3 */
  rgb: Uint8Array;
  opacity?: number;
  hidden?: boolean;
}

class Writer {
  private chunks: Buffer[] = [];
  len = 0;
  push(b: Buffer) {
    this.chunks.push(b);
    this.len += b.length;
  }
  u8(v: number) {
    const b = Buffer.alloc(1);
    b.writeUInt8(v);
    this.push(b);
  }
  u16(v: number) {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(v);
    this.push(b);
  }
  i16(v: number) {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    this.push(b);
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.push(b);
  }
  str(s: string) {
    this.push(Buffer.from(s, 'latin1'));
  }
  buf() {
    return Buffer.concat(this.chunks);
  }
}

function plane(rgb: Uint8Array, c: number, n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = rgb[i * 3 + c]!;
  return out;
}

export function writePsd(width: number, height: number, layers: PsdLayer[], composite: Uint8Array): Buffer {
  if (width > 30000 || height > 30000) throw new Error('PSD is limited to 30000 px a side');
  const n = width * height;
  const w = new Writer();
  w.str('8BPS');
  w.u16(1); // version
  w.push(Buffer.alloc(6)); // reserved
  w.u16(3); // channels
  w.u32(height);
  w.u32(width);
  w.u16(8); // depth
  w.u16(3); // RGB
  w.u32(0); // colour mode data
  w.u32(0); // image resources

  // layer info
  const li = new Writer();
  li.i16(layers.length);
  for (const l of layers) {
    li.i32(0);
    li.i32(0);
    li.i32(height);
    li.i32(width); // top, left, bottom, right
    li.u16(3);
    for (let c = 0; c < 3; c++) {
      li.i16(c);
      li.u32(2 + n); // compression word + raw data
    }
    li.str('8BIM');
    li.str('norm');
    li.u8(Math.round((l.opacity ?? 1) * 255));
    li.u8(0); // clipping
    li.u8(l.hidden ? 0x02 : 0); // flags: bit 1 = hidden
    li.u8(0); // filler
    const nameBytes = Buffer.from(l.name.slice(0, 255), 'latin1');
    const nameLen = 1 + nameBytes.length;
    const padded = Math.ceil(nameLen / 4) * 4;
    li.u32(4 + 4 + padded); // extra data: mask len, blending ranges len, name
    li.u32(0);
    li.u32(0);
    li.u8(nameBytes.length);
    li.push(nameBytes);
    li.push(Buffer.alloc(padded - nameLen));
  }
  for (const l of layers) {
    for (let c = 0; c < 3; c++) {
      li.u16(0); // raw
      li.push(plane(l.rgb, c, n));
    }
  }
  if (li.len % 2) li.u8(0);
  const layerInfo = li.buf();
  w.u32(4 + layerInfo.length + 4); // layer and mask information section
  w.u32(layerInfo.length);
  w.push(layerInfo);
  w.u32(0); // global layer mask info
  // composite image
  w.u16(0);
  for (let c = 0; c < 3; c++) w.push(plane(composite, c, n));
  return w.buf();
}

/** Reads back the header and layer names (used by tests and to sanity-check our own files). */
export function readPsdSummary(buf: Buffer): { width: number; height: number; channels: number; layers: string[] } {
  if (buf.toString('latin1', 0, 4) !== '8BPS') throw new Error('not a PSD');
  const channels = buf.readUInt16BE(12);
  const height = buf.readUInt32BE(14);
  const width = buf.readUInt32BE(18);
  let o = 26;
  o += 4 + buf.readUInt32BE(o); // colour mode data
  o += 4 + buf.readUInt32BE(o); // image resources
  o += 4; // layer+mask section length
  o += 4; // layer info length
  const count = Math.abs(buf.readInt16BE(o));
  o += 2;
  const layers: string[] = [];
  for (let i = 0; i < count; i++) {
    o += 16;
    const ch = buf.readUInt16BE(o);
    o += 2 + ch * 6 + 12;
    const extra = buf.readUInt32BE(o);
    o += 4;
    const start = o;
    o += 4 + buf.readUInt32BE(o);
    o += 4 + buf.readUInt32BE(o);
    const len = buf.readUInt8(o);
    layers.push(buf.toString('latin1', o + 1, o + 1 + len));
    o = start + extra;
  }
  return { width, height, channels, layers };
}
