/**
 * The contract every processing engine implements (one engine per module of spec §3).
 * Engines are pure functions of (image, params): no database, no HTTP, no global state
 * except memoised model sessions.
 */
import type { ModuleName, ParamsOf } from '../../src/shared/domain/modules.js';
import type { Level } from '../../src/shared/domain/plans.js';
import type { EnlargePath } from '../../src/shared/domain/enlargePath.js';

export type ImageFormat = 'jpeg' | 'png';

export interface EngineImage {
  /** encoded JPEG or PNG bytes, already auto-oriented, metadata stripped */
  data: Buffer;
  width: number;
  height: number;
  /** the encoding of `data` */
  format: ImageFormat;
}

export interface EngineContext {
  /** onnxruntime intra-op threads and sharp concurrency for this job */
  threads: number;
  /** directory holding converted ONNX models */
  modelsDir: string;
  /** level of the job's owner (some outputs, like PSD, depend on it) */
  level: Level;
  /**
   * How to encode the result: the user's format for a work's last step, PNG (lossless) for the
   * steps whose result feeds another step, so a workflow loses nothing between steps.
   */
  output: ImageFormat;
  /** fraction 0..1 of this step done */
  onProgress(fraction: number): void;
}

export interface EngineExtra {
  data: Buffer;
  /** file extension of the extra output, e.g. 'psd', 'png' */
  format: string;
}

export interface EngineResult {
  data: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
  /** extra downloadable outputs keyed by zoom_type / variant name (e.g. 'psd') */
  extras?: Record<string, EngineExtra>;
  /** enlarge: which path the enlargement took (all on the chosen nets, the fast net, or resized without AI) */
  enlargePath?: EnlargePath;
}

/** The engine of module M; it gets M's params fully parsed by the schema (src/shared/domain/modules.ts), never a missing one. */
export interface Engine<M extends ModuleName = ModuleName> {
  module: M;
  /** neural (ONNX model) or classical algorithm; the README table states which */
  kind: 'neural' | 'classical';
  /** one line for the README / api-docs */
  describe: string;
  run(input: EngineImage, params: ParamsOf<M>, ctx: EngineContext): Promise<EngineResult>;
}
