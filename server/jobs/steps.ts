/**
 * The steps of one work, in order: each step's result feeds the next as lossless PNG, and only
 * the last step encodes in the user's format, so a workflow loses no quality between steps.
 */
import { runModule } from '../engines/registry.js';
import type { EngineContext, EngineExtra, EngineImage, EngineResult } from '../engines/types.js';
import type { TaskStep } from './protocol.js';
import { ENLARGE_PATHS } from '../../src/shared/domain/enlargePath.js';

export interface StepsContext extends Omit<EngineContext, 'output' | 'onProgress'> {
  onStep(index: number): void;
  onProgress(index: number, fraction: number): void;
}

export async function runSteps(
  input: EngineImage,
  steps: readonly TaskStep[],
  ctx: StepsContext,
): Promise<EngineResult> {
  let image = input;
  let result: EngineResult | undefined;
  const extras: Record<string, EngineExtra> = {};
  // the enlarge steps' path, the least of them (a work with two enlarge steps reports the cheaper path)
  let enlargePath: EngineResult['enlargePath'];
  for (const [index, step] of steps.entries()) {
    ctx.onStep(index);
    result = await runModule(step.module, image, step.params, {
      threads: ctx.threads,
      modelsDir: ctx.modelsDir,
      level: ctx.level,
      output: index === steps.length - 1 ? input.format : 'png',
      onProgress: (fraction) => ctx.onProgress(index, fraction),
    });
    Object.assign(extras, result.extras ?? {});
    if (result.enlargePath && ENLARGE_PATHS.indexOf(result.enlargePath) >= ENLARGE_PATHS.indexOf(enlargePath ?? 'net'))
      enlargePath = result.enlargePath;
    image = { data: result.data, width: result.width, height: result.height, format: result.format };
  }
  if (!result) throw new Error('a work has at least one step');
  return { ...result, extras, ...(enlargePath ? { enlargePath } : {}) };
}
