/** compress: re-encode with mozjpeg (JPEG) or libimagequant palette quantisation (PNG) through sharp. */
import sharp from 'sharp';
import type { Engine } from './types.js';

/** Not on runOnRgb: compress's work is the encoding itself (mozjpeg / palette), straight from the input. */
export const compressEngine: Engine<'compress'> = {
  module: 'compress',
  kind: 'classical',
  describe: 'mozjpeg (JPEG) / libimagequant (PNG) re-encoding through sharp at the chosen quality',
  async run(input, { quality }, ctx) {
    sharp.concurrency(ctx.threads);
    const img = sharp(input.data, { failOn: 'error' });
    const out =
      ctx.output === 'png'
        ? await img
            .png({ palette: true, quality, effort: 7, compressionLevel: 9 })
            .toBuffer({ resolveWithObject: true })
        : await img.jpeg({ mozjpeg: true, quality }).toBuffer({ resolveWithObject: true });
    ctx.onProgress(1);
    // Never hand back a larger file than the user gave us.
    if (input.format === ctx.output && out.data.length >= input.data.length)
      return { data: input.data, format: input.format, width: input.width, height: input.height };
    return { data: out.data, format: ctx.output, width: out.info.width, height: out.info.height };
  },
};
