#!/usr/bin/env node
// `npm start`: builds the PWA when dist/ is missing or older than its sources, brings the models up
// to date (both skip quickly when nothing changed), then serves the app and the API.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, f) => Math.max(m, newest(path.join(p, f))), st.mtimeMs);
};
const built = newest(path.join(root, 'dist', 'index.html'));
const sources = Math.max(
  ...['src', 'src-worker', 'locales', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) =>
    newest(path.join(root, p)),
  ),
);
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status) process.exit(r.status);
};
if (!built || built < sources) run([path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);
run(['--import', 'tsx', 'scripts/convert-models.ts']);
// the server itself, with signals passed on so a supervisor's SIGTERM reaches it
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
