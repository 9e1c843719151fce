/**
 * The on-device enlarge uses the server's tiling itself (src/shared/imaging/tiles.ts): same grid, margins and
 * cross-fades; only the model call differs (onnxruntime-web here, onnxruntime-node there).
 */
export { upscaleTiled } from '../../src/shared/imaging/tiles.js';
export type { Rgb } from '../../src/shared/imaging/planes.js';
