/**
 * clients/typescript is a package others install: `npm pack` builds it (prepack: tsc to dist/) and packs the
 * compiled library, its types, the `pixmill` command and its README; the packed command runs as plain Node.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const pkg = path.resolve(import.meta.dirname, '../clients/typescript');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-pack-'));
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  // the build's output stays out of the tree (lint, and the next test's pack builds it afresh)
  fs.rmSync(path.join(pkg, 'dist'), { recursive: true, force: true });
});

describe('the pixmill-client package', () => {
  it('npm pack makes a tarball with the built library, its types, the pixmill command and the README', () => {
    const json = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], {
      cwd: pkg,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [packed] = JSON.parse(json.slice(json.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
    const files = packed.files.map((f) => f.path).sort();
    for (const f of [
      'README.md',
      'package.json',
      'dist/cli.js',
      'dist/client.js',
      'dist/client.d.ts',
      'dist/pixmill.gen.d.ts',
    ])
      expect(files).toContain(f);
    expect(files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);

    // installed: the command runs as plain Node and answers its usage with exit code 2
    execFileSync('tar', ['-xzf', path.join(tmp, packed.filename), '-C', tmp]);
    const manifest = JSON.parse(fs.readFileSync(path.join(tmp, 'package/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    const cli = spawnSync(process.execPath, [path.join(tmp, 'package', manifest.bin.pixmill!)], { encoding: 'utf8' });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain('usage: pixmill');
  });
});
