/**
 * The API process never loads onnxruntime or an engine (issue 50, point 1): processing runs in slot
 * processes (server/jobs/slotProcess.ts), so the process that answers HTTP carries neither the native
 * runtime nor the engines' code. Checked on the real entry (server/main.ts) in both shapes: the
 * embedded `npm start` (RUN_JOBS=1, its runner forks the slots) and the scale-out `npm run start:api`
 * (RUN_JOBS=0). Every module the process loads through the ESM loader is recorded
 * (tests/support/loadedModules.mjs), and the native library is looked for in its memory map.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../tests/integration/until.js';
import { freePort } from '../tests/support/modesCluster.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENGINES = pathToFileURL(path.join(ROOT, 'server', 'engines')).href + '/';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((s) => s()));
});

async function startApi(runJobs: '0' | '1') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-api-process-'));
  const loaded = path.join(dir, 'loaded.txt');
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './tests/support/loadedModules.mjs', 'server/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: path.join(dir, 'data'),
        CLIENT_DIR: path.join(dir, 'no-client'),
        DATABASE_URL: '',
        REDIS_URL: '',
        RUN_JOBS: runJobs,
        PROCESS_WORKERS: '1',
        LOG_LEVEL: 'warn',
        PIXMILL_TEST_MODE: '',
        PIXMILL_LOADED_MODULES: loaded,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  stops.push(async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const health = await until(
    () =>
      fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok || child.exitCode !== null,
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  expect(health, stderr).toBe(true);
  // A model file is one route of the API process: serving it must not load the engines either.
  expect((await fetch(`http://127.0.0.1:${port}/models/pixmill-sr-x2-small-v2.onnx`)).status).toBe(200);
  const modules = fs.readFileSync(loaded, 'utf8').split('\n').filter(Boolean);
  const maps = fs.readFileSync(`/proc/${child.pid}/maps`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
  return { modules, maps, rssKb };
}

describe.each([
  { shape: 'embedded npm start', runJobs: '1' as const },
  { shape: 'scale-out start:api', runJobs: '0' as const },
])('the API process ($shape)', ({ runJobs }) => {
  it('loads no engine and no onnxruntime', async () => {
    const { modules, maps, rssKb } = await startApi(runJobs);
    // the recording works: the entry and the routes are in it
    expect(modules.some((u) => u.endsWith('/server/app.ts'))).toBe(true);
    expect(modules.filter((u) => u.startsWith(ENGINES))).toEqual([]);
    expect(modules.filter((u) => u.includes('/node_modules/onnxruntime-'))).toEqual([]);
    expect(maps).not.toMatch(/onnxruntime/);
    console.log(`API process (RUN_JOBS=${runJobs}) after start: VmRSS ${Math.round(rssKb / 1024)} MiB`);
  });
});
