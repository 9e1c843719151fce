import { describe, expect, it } from 'vitest';
import { mattingTargetName, sanitizeFilename, shortenFilename, splitExtension, stemOf } from './filename.js';

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

describe('filename shortening (20 units, 10 each side)', () => {
  it.each([
    ['short.png', 'short.png'],
    ['abcdefghijklmnopqrs.jpg', 'abcdefghijklmnopqrs.jpg'], // 19 units: kept
    ['abcdefghijklmnopqrst.jpg', 'abcdefghij…klmnopqrst.jpg'], // 20 units: shortened
    ['a-very-long-holiday-photo-from-2024.png', 'a-very-lon…-from-2024.png'],
    ['日本語のとても長いファイル名です.png', '日本語のと…イル名です.png'],
    // Cyrillic and Greek are narrow: 19 units stay whole, as Latin would.
    ['фотографиявотпуске.jpg', 'фотографиявотпуске.jpg'],
    ['φωτογραφίαδιακοπές.png', 'φωτογραφίαδιακοπές.png'],
    ['한국어파일이름입니다길다.png', '한국어파일…입니다길다.png'],
  ])('%s → %s', (input, expected) => {
    expect(shortenFilename(input)).toBe(expected);
  });
});

describe('extension', () => {
  it.each([
    ['cat.photo.jpg', 'cat.photo', 'jpg'],
    ['notes', 'notes', ''],
    ['.hidden', '.hidden', ''],
    ['a.PNG', 'a', 'PNG'],
  ])('%s → %s + %s', (name, stem, ext) => {
    expect(splitExtension(name)).toEqual({ stem, ext });
    expect(stemOf(name)).toBe(stem);
  });
  it('matting-{basename}.png', () => expect(mattingTargetName('cat.photo.jpg')).toBe('matting-cat.photo.png'));
});
