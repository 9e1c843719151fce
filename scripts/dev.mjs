#!/usr/bin/env node
// `npm run dev`: the API on :8080, restarted when server code changes (node --watch), and Vite's dev
// server on :5173 with hot reload, which proxies the API paths to it (vite.config.ts, server.proxy).
// Open http://localhost:5173 (the API takes it as its public origin for the cross-site check). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn(
    process.execPath,
    ['--watch-path=server', '--watch-path=src/shared/domain', '--import', 'tsx', 'server/main.ts'],
    { cwd: root, stdio: 'inherit', env: { PORT: '8080', PUBLIC_URL: 'http://localhost:5173', ...process.env } },
  ),
  spawn(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--port', '5173', '--strictPort'],
    { cwd: root, stdio: 'inherit' },
  ),
];
const stop = (code = 0) => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exitCode = code;
};
for (const c of children) c.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
