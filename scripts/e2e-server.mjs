#!/usr/bin/env node
// Starts the real server for the browser tests on a fresh temporary DATA_DIR.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-e2e-'));
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: path.resolve(import.meta.dirname, '..'),
  stdio: 'inherit',
  // The browser tests buy plans through the built-in free provider (never on by default).
  // The upload harness (its own build, dist-test/) is served to the browser tests only (SERVE_TEST_PAGES).
  env: { ...process.env, DATA_DIR: dataDir, PAYMENT_PROVIDER: 'local', SERVE_TEST_PAGES: '1' },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
