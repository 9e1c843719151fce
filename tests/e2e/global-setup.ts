/**
 * Before the browser tests: the test pages (the upload harness, tests/e2e/harness/) are a build of their
 * own, kept out of the product's dist/ (vite.config.ts, mode test-pages). Built here when dist-test/ is
 * missing or older than the client's sources; the e2e servers serve it under /test-pages/ at request time
 * (tests/support/testPages.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HARNESS_FILE, TEST_PAGES_DIR } from '../support/testPages.js';

const root = path.resolve(import.meta.dirname, '../..');
const STAMP = path.join(TEST_PAGES_DIR, HARNESS_FILE);
const SOURCES = ['src', 'src-worker', 'locales', 'tests/e2e/harness', 'vite.config.ts', 'package-lock.json'];

/** The newest modification time under `p` (0 when it does not exist). */
function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, f) => Math.max(m, newest(path.join(p, f))), st.mtimeMs);
}

export default function globalSetup(): void {
  const built = newest(STAMP);
  if (built && built >= Math.max(...SOURCES.map((s) => newest(path.join(root, s))))) return;
  const t0 = Date.now();
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--mode', 'test-pages', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('the test pages did not build (vite build --mode test-pages)');
  console.log(`test pages built in ${((Date.now() - t0) / 1000).toFixed(1)} s (dist-test/)`);
}
