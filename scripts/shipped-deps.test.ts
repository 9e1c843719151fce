// Runtime dependencies are what the shipped server and app use: every package in package.json's
// `dependencies` is imported by shipped code (server/, src/, src-worker/, the start, models and admin
// scripts) or is one of the few read by path, each named below with the file that reads it. A package only
// benches, quality scripts or tests use belongs in devDependencies (as the ESRGAN packages, which only the
// quality and bench runs convert, do).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const SHIPPED = ['server', 'src', 'src-worker', 'scripts/start.mjs', 'scripts/convert-models.ts', 'scripts/admin.ts'];
/** Read by path or run as a program, not imported: the package and who needs it. */
const BY_PATH: Record<string, string> = {
  '@imgly/background-removal-data': 'IS-Net chunks, server/engines/models.ts and http/routes/models.ts',
  '@upscalerjs/maxim-enhancement': 'MAXIM weights converted by server/engines/models.ts (retouch)',
  '@upscalerjs/maxim-retouching': 'MAXIM weights converted by server/engines/models.ts (retouch)',
  '@vladmandic/human': 'BlazeFace and FaceMesh weights converted by server/engines/models.ts',
  tsx: 'the loader npm start and start:api run the server with (node --import tsx)',
};

function files(p: string): string[] {
  const full = path.join(root, p);
  if (!fs.statSync(full).isDirectory()) return [full];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((d) => {
    const rel = path.join(p, d.name);
    if (d.isDirectory()) return files(rel);
    return /\.(ts|tsx|mjs|js)$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [path.join(root, rel)] : [];
  });
}

describe('runtime dependencies', () => {
  it('are each used by the shipped code', () => {
    const deps = Object.keys(
      (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
    );
    const imported = new Set<string>();
    for (const f of SHIPPED.flatMap(files))
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'".][^'"]*)['"]/g)) {
        const spec = m[1]!;
        imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    const unused = deps.filter((d) => !imported.has(d) && !Object.hasOwn(BY_PATH, d));
    expect(unused).toEqual([]);
    // every by-path entry is still a dependency (the list does not outlive its packages)
    expect(Object.keys(BY_PATH).filter((d) => !deps.includes(d))).toEqual([]);
  });
});
