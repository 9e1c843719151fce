#!/usr/bin/env node
// `npm test`: typecheck and lint, unit + server integration (vitest; the integration suite in both modes), then browser end-to-end (Playwright + Debian Chromium, the gate's project).
// Ends with the time of each step and one summary line "N passed, N failed, N skipped" counted from both runners' JSON reports.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });
const times = [];
const seconds = (t0) => ((Date.now() - t0) / 1000).toFixed(1);
/** Runs a step with its output on ours; returns its exit status. */
const run = (name, cmd, args, env = {}) => {
  const t0 = Date.now();
  const status = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
  times.push([name, seconds(t0)]);
  return status;
};
/** Runs a step with its output on ours without blocking the event loop (a step beside it keeps being read). */
const runAsync = (name, cmd, args, env = {}) =>
  new Promise((resolve) => {
    const t0 = Date.now();
    spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).on('close', (code) => {
      times.push([name, seconds(t0)]);
      resolve(code ?? 1);
    });
  });
/** Runs a step beside others, its output held back and printed in one piece when it ends (no interleaved logs). */
const runBeside = (name, cmd, args) =>
  new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(chunks));
      times.push([name, seconds(t0)]);
      console.log(`${name}: ${code ? 'FAILED' : 'ok'} (${times.at(-1)[1]} s)`);
      resolve(code ?? 1);
    });
  });

// The server integration suite runs again in the scale-out mode (PostgreSQL + BullMQ) when both answer
// locally: vitest's `scaleout` project (vitest.config.ts), in the same vitest run as the first pass.
const probe = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/modes.ts'], {
  cwd: root,
  encoding: 'utf8',
});
console.log(`${(probe.stdout || probe.stderr || 'scale-out pass SKIPPED: probe failed').trim()}\n`);
const scaleout = probe.status === 0 ? { PIXMILL_SCALEOUT_PASS: '1' } : {};

// A type error or a lint error fails the run. tsc and eslint each use one core: the typecheck (the longest
// of the three) runs beside lint, the build of the PWA (which the browser tests need at the end) and then
// the unit and server tests, so neither core waits for it.
let failedSteps = 0;
const vitestJson = path.join(out, 'vitest.json');
fs.rmSync(vitestJson, { force: true });
const [typecheck, lintBuildVitest] = await Promise.all([
  runBeside('typecheck', 'npm', ['run', '--silent', 'typecheck']),
  (async () =>
    ((await runBeside('lint', 'npm', ['run', '--silent', 'lint'])) ? 1 : 0) +
    ((await runBeside('build', 'npm', ['run', '--silent', 'build'])) ? 1 : 0) +
    // the browser tests' own pages (the upload harness), kept out of the product's build
    ((await runBeside('build test pages', 'npm', ['run', '--silent', 'build:test-pages'])) ? 1 : 0) +
    ((await runAsync(
      'vitest',
      'npx',
      ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
      scaleout,
    ))
      ? 1
      : 0))(),
]);
failedSteps += (typecheck ? 1 : 0) + lintBuildVitest;

// The browser tests run against the PWA built above: the gate's project (the review suite, screenshots for
// looking at and the software-WebGPU check, is `npm run test:review`; docs/testing.md).
const pwJson = path.join(out, 'playwright.json');
fs.rmSync(pwJson, { force: true });
failedSteps += run('playwright', 'npx', ['playwright', 'test', '--project', 'browser'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
})
  ? 1
  : 0;

let passed = 0,
  failed = 0,
  skipped = 0;
try {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
} catch {
  failed += 1;
  console.error('no vitest report');
}
try {
  const p = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
  passed += p.stats.expected;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  passed += p.stats.flaky;
} catch {
  failed += 1;
  console.error('no playwright report');
}

console.log(`\nstep times (s): ${times.map(([name, s]) => `${name} ${s}`).join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps || failed ? 1 : 0);
