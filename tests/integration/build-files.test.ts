/**
 * A production server never sends source maps, and the browser tests' upload harness is no part of
 * the product's build: it is a build of its own (dist-test/), sent under /test-pages/ only when
 * SERVE_TEST_PAGES=1 (the e2e server). The build itself makes no maps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { send } from './security-helpers.js';

let clientDir: string;
let testPagesDir: string;
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
  testPagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-test-pages-'));
  fs.mkdirSync(path.join(testPagesDir, 'tests/e2e/harness'), { recursive: true });
  fs.mkdirSync(path.join(testPagesDir, 'assets'));
  fs.writeFileSync(path.join(testPagesDir, 'assets/harness-AbCdEf12.js'), 'window.__harness={}');
  fs.writeFileSync(
    path.join(testPagesDir, 'tests/e2e/harness/upload-harness.html'),
    '<!doctype html><title>harness</title>',
  );
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  fs.rmSync(clientDir, { recursive: true, force: true });
  fs.rmSync(testPagesDir, { recursive: true, force: true });
});

const server = async (serveTestPages: boolean) => {
  const s = await startTestServer({ runJobs: false, clientDir, serveTestPages, testPagesDir });
  servers.push(s);
  return s;
};

describe('build files a production server does not send', () => {
  it('source maps: 404 in every spelling; the scripts themselves are served', async () => {
    const srv = await server(false);
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

  it("the upload harness: only with SERVE_TEST_PAGES=1, from the test pages' build under /test-pages/", async () => {
    const prod = await server(false);
    for (const p of [
      '/test-pages/tests/e2e/harness/upload-harness.html',
      '/test-pages/assets/harness-AbCdEf12.js',
      '/TEST-PAGES/assets/harness-AbCdEf12.js',
      '/test-pages%2Fassets/harness-AbCdEf12.js',
    ]) {
      const r = await send(prod.url, 'GET', p);
      expect(r.status, p).toBe(404);
      expect(r.text, p).not.toContain('harness');
    }
    const e2e = await server(true);
    expect((await send(e2e.url, 'GET', '/test-pages/tests/e2e/harness/upload-harness.html')).text).toContain(
      '<title>harness</title>',
    );
    expect((await send(e2e.url, 'GET', '/test-pages/assets/harness-AbCdEf12.js')).text).toContain('__harness');
    // the product's build is not where the harness comes from, and maps stay unsent
    expect((await send(e2e.url, 'GET', '/tests/e2e/harness/upload-harness.html')).text).not.toContain('harness');
    expect((await send(e2e.url, 'GET', '/assets/index-AbCdEf12.js.map')).status).toBe(404);
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
