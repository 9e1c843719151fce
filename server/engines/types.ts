/**
 * The contract every processing engine implements (one engine per module of spec §3).
 * Engines are pure functions of (image, params): no database, no HTTP, no global state
 * except memoised model sessions.
 */
import type { ModuleName, ModuleParams } from '../../src/domain/modules.js';
import type { Level } from '../../src/domain/plans.js';

export type ImageFormat = 'jpeg' | 'png';

export interface EngineImage {
  /** encoded JPEG or PNG bytes, already auto-oriented, metadata stripped */
  data: Buffer;
  width: number;
  height: number;
  format: ImageFormat;
}

export interface EngineContext {
  /** onnxruntime intra-op threads and sharp concurrency for this job */
  threads: number;
  /** directory holding converted ONNX models */
  modelsDir: string;
  /** level of the job's owner (some outputs, like PSD, depend on it) */
  level: Level;
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
}

export interface Engine {
  module: ModuleName;
  /** neural (ONNX model) or classical algorithm; the README table states which */
  kind: 'neural' | 'classical';
  /** one line for the README / api-docs */
  describe: string;
  run(input: EngineImage, params: ModuleParams, ctx: EngineContext): Promise<EngineResult>;
}
