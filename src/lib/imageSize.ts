/**
 * Pixel size of a JPEG or PNG read from its header (no decode): used to tell the user, at upload,
 * that the plan's resolution limit will shrink the image, and to label sizes honestly afterwards.
 */
export interface PixelSize {
  w: number;
  h: number;
}

/** Reads the size from the first bytes of a file; null when the header is not understood. */
function sizeFromHeader(bytes: Uint8Array): PixelSize | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // PNG: signature, then IHDR with width and height as big-endian uint32.
  if (bytes.length >= 24 && v.getUint32(0) === 0x89504e47 && v.getUint32(12) === 0x49484452) {
    return { w: v.getUint32(16), h: v.getUint32(20) };
  }
  // JPEG: walk the markers up to a start-of-frame (SOF0..SOF15 except DHT/JPG/DAC).
  if (bytes.length >= 4 && v.getUint16(0) === 0xffd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1];
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      const len = v.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { w: v.getUint16(i + 7), h: v.getUint16(i + 5) };
      }
      i += 2 + len;
    }
  }
  return null;
}

/** The first 256 KB hold the frame header of any camera JPEG (EXIF thumbnails included). */
export async function readPixelSize(file: Blob): Promise<PixelSize | null> {
  try {
    const head = new Uint8Array(await file.slice(0, 256 * 1024).arrayBuffer());
    return sizeFromHeader(head);
  } catch {
    return null;
  }
}
