import { describe, expect, it } from 'vitest';
import { sanitizeFilename } from './filename.js';

describe('sanitizeFilename (spec §5: special characters → _), one rule for worker and server', () => {
  it.each([
    // readable names survive: spaces, brackets, any script
    ['my photo (1).jpg', undefined, 'my photo (1).jpg'],
    ['a b(1).png', 'png', 'a b(1).png'],
    ['日本語の写真.jpg', 'jpeg', '日本語の写真.jpg'],
    ['été à Paris.JPG', undefined, 'été à Paris.jpg'],
    ['ok-name_2.png', undefined, 'ok-name_2.png'],
    ['Photo.JPEG', 'jpeg', 'Photo.jpeg'],
    // no directory part
    ['../../etc/passwd', 'jpeg', 'passwd.jpg'],
    ['C:\\Users\\me\\cat.png', 'png', 'cat.png'],
    ['a/b\\c:d*e?.png', undefined, 'c_d_e_.png'],
    // unsafe in a file system or a Content-Disposition header
    ['we$ird#name!.png', 'png', 'we_ird_name_.png'],
    ['say "hi";.jpg', undefined, 'say _hi__.jpg'],
    ['写真#1.jpeg', undefined, '写真_1.jpeg'],
    ['a\u0000b.jpg', 'jpeg', 'a_b.jpg'],
    ['tab\there\n.png', undefined, 'tab_here_.png'],
    // nothing readable left, hidden files, wrong extension
    ['%$&.jpg', undefined, 'image.jpg'],
    ['', 'png', 'image.png'],
    ['...', 'jpeg', 'image.jpg'],
    ['.hidden.jpg', 'jpeg', 'hidden.jpg'],
    ['png-really.jpg', 'png', 'png-really.png'],
    ['notes', 'png', 'notes.png'],
  ] as const)('%j (%s) → %j', (raw, fmt, want) => expect(sanitizeFilename(raw, fmt)).toBe(want));

  it('caps the length at 120 characters and keeps the extension', () => {
    const n = sanitizeFilename('é'.repeat(500) + '.png', 'png');
    expect(Array.from(n)).toHaveLength(120);
    expect(n.endsWith('.png')).toBe(true);
  });
});
