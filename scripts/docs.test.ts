// The README stays an overview (≤ 200 lines: the two commands, what each feature does, configuration,
// layout, where to read more); details live in docs/. Every link of the README and of docs/README.md
// ("Where to find") names a file that exists.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');

/** The relative file links of a markdown file (`[x](path)` and `[x](path#anchor)`), resolved from its folder. */
function links(file: string): string[] {
  const out: string[] = [];
  for (const m of read(file).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/.test(target)) continue;
    out.push(path.normalize(path.join(path.dirname(file), target)));
  }
  return out;
}

describe('docs', () => {
  it('the README is at most 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
  });

  it.each(['README.md', 'docs/README.md'])('every link of %s names a file of the repository', (file) => {
    const missing = links(file).filter((f) => !fs.existsSync(path.join(root, f)));
    expect(missing).toEqual([]);
  });
});
