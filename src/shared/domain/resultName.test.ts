import { describe, expect, it } from 'vitest';
import { mattingTargetName, resultBase, resultFileName } from './resultName.js';

describe('result names', () => {
  it.each([
    ['rocket.jpg', 'compress', 'jpg', 'rocket_compress.jpg'],
    ['my.photo.png', 'se-night', 'png', 'my.photo_se-night.png'],
    ['cat.png', 'matting', 'png', 'matting-cat.png'],
    ['no extension', 'sharpen', 'jpg', 'no extension_sharpen.jpg'],
    [null, 'denoise', 'jpg', 'image_denoise.jpg'],
    ['', 'matting', 'png', 'matting-image.png'],
    ['.png', 'enlarge', 'png', 'image_enlarge.png'],
    ['  .jpg', 'enlarge', 'png', 'image_enlarge.png'],
  ])('%j + %s → %s', (file, job, ext, want) => expect(resultFileName(file, job, ext)).toBe(want));

  it('names the matting editor output the same way the server names a matting download', () => {
    for (const f of ['cat.photo.jpg', '', '.png', '写真.jpeg'])
      expect(mattingTargetName(f)).toBe(resultFileName(f, 'matting', 'png'));
    expect(mattingTargetName('cat.photo.jpg')).toBe('matting-cat.photo.png');
    expect(resultBase('a b.jpeg')).toBe('a b');
  });
});
