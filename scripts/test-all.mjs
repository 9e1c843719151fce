#!/usr/bin/env node
// `npm test`: typecheck and lint, unit + server integration (vitest), then browser end-to-end (Playwright + Debian Chromium).
// Ends with one summary line "N passed, N failed, N skipped" counted from both runners' JSON reports.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

let failedSteps = 0;
// The tools hold the line first: a type error or a lint error fails the run.
for (const [name, cmd, args] of [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
]) {
  const status = run(cmd, args);
  console.log(`${name}: ${status ? 'FAILED' : 'ok'}`);
  if (status) failedSteps += 1;
}
const vitestJson = path.join(out, 'vitest.json');
fs.rmSync(vitestJson, { force: true });
failedSteps += run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]) ? 1 : 0;

// The server integration suite again in the scale-out mode (PostgreSQL + BullMQ), when both answer locally.
const scaleoutJson = path.join(out, 'vitest-scaleout.json');
fs.rmSync(scaleoutJson, { force: true });
const probe = spawnSync(process.execPath, ['--import', 'tsx', 'server/testing/modes.ts'], { cwd: root, encoding: 'utf8' });
console.log(`\n${(probe.stdout || probe.stderr || 'scale-out pass SKIPPED: probe failed').trim()}`);
if (probe.status === 0) {
  failedSteps += run('npx', ['vitest', 'run', 'tests/integration', '--exclude', 'tests/integration/scaleout*', '--reporter=default', '--reporter=json', `--outputFile.json=${scaleoutJson}`], { PIXMILL_TEST_MODE: 'scaleout' }) ? 1 : 0;
}

// The browser tests run against the built PWA.
if (run('npm', ['run', 'build'])) failedSteps += 1;
const pwJson = path.join(out, 'playwright.json');
fs.rmSync(pwJson, { force: true });
failedSteps += run('npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson }) ? 1 : 0;

let passed = 0, failed = 0, skipped = 0;
try {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests; failed += v.numFailedTests; skipped += v.numPendingTests + (v.numTodoTests ?? 0);
} catch { failed += 1; console.error('no vitest report'); }
if (fs.existsSync(scaleoutJson)) {
  const v = JSON.parse(fs.readFileSync(scaleoutJson, 'utf8'));
  passed += v.numPassedTests; failed += v.numFailedTests; skipped += v.numPendingTests + (v.numTodoTests ?? 0);
}
try {
  const p = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
  passed += p.stats.expected; failed += p.stats.unexpected; skipped += p.stats.skipped; passed += p.stats.flaky;
} catch { failed += 1; console.error('no playwright report'); }

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps || failed ? 1 : 0);
