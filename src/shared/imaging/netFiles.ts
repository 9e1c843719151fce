/**
 * What the server's and the device's runs of our own nets share (server/engines/netRunners.ts,
 * src-worker/ondevice): the model files, their tiling, the self-ensemble's transforms and the
 * padding of a tile to the multiple a net needs. Plain typed arrays: no Node or DOM API.
 */
import type { TileOptions } from './tiles.js';

/**
 * Versioned names: a retrained net gets a new name, so the immutable /models/ answers never change.
 * The server's engines load `OWN_NET_FILES[role]` (server/engines/netRunners.ts); the device loads
 * x2Small. SR nets: "mixed" = trained on the mixed degradations (blur, sensor noise, JPEG), "clean" =
 * the same net fine-tuned on bicubic-only pairs; enlarge blends the two per photo (inputGrade.ts).
 */
export const OWN_NETS = {
  x2: 'pixmill-sr-x2-v2',
  x2Clean: 'pixmill-sr-x2-v2-clean',
  x4: 'pixmill-sr-x4-v2',
  x4Clean: 'pixmill-sr-x4-v2-clean',
  x2Small: 'pixmill-sr-x2-small-v2',
  denoise: 'pixmill-denoise-v2',
  deblur: 'pixmill-deblur-v1',
} as const;
type Nets = typeof OWN_NETS;
/** Download size of the on-device x2 net (x2Small), which the device fetches (checked against the file by netRunners.test.ts). */
export const OWN_X2_BYTES = 1_450_234;
export const OWN_NET_FILES = Object.fromEntries(Object.entries(OWN_NETS).map(([k, v]) => [k, `${v}.onnx`])) as {
  [K in keyof Nets]: `${Nets[K]}.onnx`;
};

/** The on-device x2 net (48 channels × 8 blocks) sees 19 px of low-resolution context; 20 px margins make tile seams exact to the byte's rounding. */
export const SR_TILE: TileOptions = { tile: 384, pad: 20, blend: 6 };
/**
 * The server's SR nets (64 channels × 16 blocks, x2 and x4) see 35 px of low-resolution context: 36-px
 * margins keep the seams exact to the byte's rounding.
 */
export const SR_TILE_V2: TileOptions = { tile: 384, pad: 36, blend: 6 };
/** The denoiser's (and the deblur net's, the same U-Net) reaches ~90 px; 48-px margins and a cross-fade hide what it cannot see. */
export const DENOISE_TILE: TileOptions = { tile: 512, pad: 48, blend: 12 };

/** A mirror ('fx', 'fy') or a transpose ('t'); a list of them applies left to right. */
export type Transform = 'fx' | 'fy' | 't';
const ALL: readonly (readonly Transform[])[] = [
  [],
  ['fx'],
  ['fy'],
  ['t'],
  ['fx', 'fy'],
  ['fx', 't'],
  ['fy', 't'],
  ['fx', 'fy', 't'],
];

/** The first n of the eight flips/transposes (n = 1: the identity only). */
export function ensembleTransforms(n: number): readonly (readonly Transform[])[] {
  return ALL.slice(0, Math.max(1, Math.min(8, Math.round(n))));
}

/** Planar [3, th, tw] padded by reflection on the right/bottom to multiples of m. */
export function padToMultiple(
  input: Float32Array,
  tw: number,
  th: number,
  m: number,
): { data: Float32Array; pw: number; ph: number } {
  const pw = Math.ceil(tw / m) * m,
    ph = Math.ceil(th / m) * m;
  if (pw === tw && ph === th) return { data: input, pw, ph };
  const out = new Float32Array(3 * pw * ph);
  const ref = (i: number, n: number) => (i < n ? i : Math.max(0, 2 * n - 2 - i));
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < ph; y++) {
      const sy = ref(y, th);
      for (let x = 0; x < pw; x++) out[c * pw * ph + y * pw + x] = input[c * tw * th + sy * tw + ref(x, tw)]!;
    }
  return { data: out, pw, ph };
}
