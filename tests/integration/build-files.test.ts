/**
 * A production server never sends source maps, and the browser tests' upload harness is no part of
 * the product: it is a build of its own (dist-test/) that only the e2e servers add under /test-pages/
 * (tests/support/testPages.ts); the product server has no setting for it. The build itself makes no maps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { send } from './security-helpers.js';

let clientDir: string;
const servers: TestServer[] = [];
beforeAll(() => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-client-'));
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(clientDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(clientDir, rel), text);
  };
  put('index.html', '<!doctype html><title>app</title>');
  put('sw.js', 'self.x=1;');
  put('sw.js.map', '{"sources":["/home/build/src/sw.ts"]}');
  put('assets/index-AbCdEf12.js', 'console.log(1)');
  put('assets/index-AbCdEf12.js.map', '{"sources":["../src/main.tsx"]}');
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const server = async () => {
  const s = await startTestServer({ runJobs: false, clientDir });
  servers.push(s);
  return s;
};

describe('build files a production server does not send', () => {
  it('source maps: 404 in every spelling; the scripts themselves are served', async () => {
    const srv = await server();
    expect((await send(srv.url, 'GET', '/assets/index-AbCdEf12.js')).status).toBe(200);
    for (const p of [
      '/sw.js.map',
      '/assets/index-AbCdEf12.js.map',
      '/assets/index-AbCdEf12.js%2Emap',
      '/assets/index-AbCdEf12.js.MAP',
    ]) {
      const r = await send(srv.url, 'GET', p);
      expect(r.status, p).toBe(404);
      expect(r.text, p).not.toContain('sources');
    }
  });

  it("the upload harness is never sent: its place is an unknown path like any other (the app's document)", async () => {
    const prod = await server();
    for (const p of [
      '/test-pages/tests/e2e/harness/upload-harness.html',
      '/test-pages/assets/harness-AbCdEf12.js',
      '/TEST-PAGES/assets/harness-AbCdEf12.js',
      '/test-pages%2Fassets/harness-AbCdEf12.js',
      '/tests/e2e/harness/upload-harness.html',
    ]) {
      const r = await send(prod.url, 'GET', p);
      expect(r.text, p).toBe('<!doctype html><title>app</title>');
    }
  });

  it("the production build has the site as its only input; the harness is the test-pages build's", async () => {
    const config = (await import('../../vite.config.js')).default as unknown as (env: {
      mode: string;
      command: 'build';
    }) => { build: { outDir: string; rollupOptions: { input: Record<string, string> } } };
    const app = config({ mode: 'production', command: 'build' });
    expect(
      Object.values(app.build.rollupOptions.input).map((f) =>
        path.relative(path.resolve(import.meta.dirname, '../..'), f),
      ),
    ).toEqual(['index.html']);
    expect(app.build.outDir).toBe('dist');
    const tests = config({ mode: 'test-pages', command: 'build' });
    expect(Object.values(tests.build.rollupOptions.input).map((f) => path.basename(f))).toEqual([
      'upload-harness.html',
    ]);
    expect(tests.build.outDir).toBe('dist-test');
  });

  it('the build config makes no source maps (app and service worker)', () => {
    const cfg = fs.readFileSync(path.resolve(import.meta.dirname, '../../vite.config.ts'), 'utf8');
    expect(cfg).toMatch(/build: \{[^}]*sourcemap: false/s);
    expect(cfg).toMatch(/workbox: \{[\s\S]*sourcemap: false/);
  });
});
