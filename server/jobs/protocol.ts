/** Messages between the main thread and a processing worker thread (server/jobs/processWorker.ts). */
import type { ModuleName, ModuleParams } from '../../src/shared/domain/modules.js';
import type { Level } from '../../src/shared/domain/plans.js';
import type { EngineResult, ImageFormat } from '../engines/types.js';

export interface TaskStep {
  module: ModuleName;
  params: ModuleParams;
}

export interface RunTask {
  /** trans_id of the work */
  id: string;
  /** file path of the working image (auto-oriented JPEG/PNG) */
  inputPath: string;
  width: number;
  height: number;
  format: ImageFormat;
  steps: TaskStep[];
  level: Level;
  threads: number;
  modelsDir: string;
}

export interface TaskOutput {
  data: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
  extras: Record<string, { data: Uint8Array; format: string }>;
  /** a work with an enlarge step: the path its enlargement took (src/shared/domain/enlargePath.ts) */
  enlargePath?: EngineResult['enlargePath'];
}

export type ToWorker = { type: 'run'; task: RunTask };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'step'; id: string; index: number }
  | { type: 'progress'; id: string; index: number; fraction: number }
  | { type: 'done'; id: string; output: TaskOutput }
  | { type: 'error'; id: string; message: string };
