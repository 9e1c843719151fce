/**
 * An engine that is only work on pixels: the input is decoded to RGB, `work` runs with the module's
 * params and the job's context, and its result is encoded the way the context asks (`runOnRgb`).
 * One definition of that wrapper for the engines whose whole run is that.
 */
import type { ModuleName, ParamsOf } from '../../src/shared/domain/modules.js';
import { runOnRgb, type PixelsOut, type Rgb } from './image.js';
import type { Engine, EngineContext } from './types.js';

export function pixelEngine<M extends ModuleName>(
  module: M,
  kind: Engine['kind'],
  describe: string,
  work: (img: Rgb, params: ParamsOf<M>, ctx: EngineContext) => PixelsOut | Promise<PixelsOut>,
): Engine<M> {
  return { module, kind, describe, run: (input, params, ctx) => runOnRgb(input, ctx, (img) => work(img, params, ctx)) };
}
