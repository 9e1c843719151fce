import { describe, expect, it } from 'vitest';
import { sanitizeFilename } from './uploads.js';

describe('sanitizeFilename (spec §5: special characters → _)', () => {
  it.each([
    ['photo.jpg', 'jpeg', 'photo.jpg'],
    ['Photo.JPEG', 'jpeg', 'Photo.jpeg'],
    ['../../etc/passwd', 'jpeg', 'passwd.jpg'],
    ['C:\\Users\\me\\cat.png', 'png', 'cat.png'],
    ['a b(1).png', 'png', 'a b(1).png'],
    ['日本語の写真.jpg', 'jpeg', '日本語の写真.jpg'],
    ['we$ird#name!.png', 'png', 'we_ird_name_.png'],
    ['png-really.jpg', 'png', 'png-really.png'],
    ['.hidden.jpg', 'jpeg', 'hidden.jpg'],
    ['', 'png', 'image.png'],
    ['...', 'jpeg', 'image.jpg'],
    ['a\u0000b.jpg', 'jpeg', 'a_b.jpg'],
  ] as const)('%j (%s) → %j', (raw, fmt, want) => expect(sanitizeFilename(raw, fmt)).toBe(want));

  it('caps the length and keeps the extension', () => {
    const n = sanitizeFilename('é'.repeat(500) + '.png', 'png');
    expect(Array.from(n)).toHaveLength(120);
    expect(n.endsWith('.png')).toBe(true);
  });
});
