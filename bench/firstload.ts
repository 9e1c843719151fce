/**
 * First load (npm run bench firstload): JavaScript transferred (bytes on the wire: compressed bodies
 * plus response headers) of the home page and of the workspace page, and the home page's first
 * contentful paint, in Chromium on the built PWA served by the real server, with the network
 * throttled through CDP to Lighthouse's mobile "Slow 4G" (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up)
 * and a cold cache. Everything the page fetches by itself until the network is idle counts (lazy
 * chunks loaded after the paint too). Goals: home ≤ 150 KB JS and FCP ≤ 1.5 s; every
 * page's initial JS ≤ 200 KB (each page of the sitemap loaded once, unthrottled: bytes do not
 * depend on the throttling).
 *
 * Baseline in the same run: the client built from FIRSTLOAD_BASELINE_REF (default: the last commit
 * before the first-load budget work), exported with `git archive` and built once into the OS temp
 * directory (kept there for later runs). FIRSTLOAD_BASELINE_REF=none skips it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer } from '../tests/support/server.js';
import { ALL_PATHS } from '../src/shared/sitemap.js';
import type { BenchRow } from './run.js';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = 3;
const DEFAULT_BASELINE_REF = '0185db5';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
/** The pages measured: the storefront and the workspace (the heaviest page a first visit can open). */
const PAGES = [
  { key: 'home', path: '/' },
  { key: 'workspace', path: '/batch-process/' },
] as const;

interface Load {
  js: number;
  all: number;
  scripts: number;
  fcp: number;
  encodings: Set<string>;
}

async function coldLoad(browser: Browser, url: string, throttle = true): Promise<Load> {
  // A fresh profile each run: a first visit, nothing cached, no service worker yet.
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (throttle) await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    const types = new Map<string, string>();
    const load: Load = { js: 0, all: 0, scripts: 0, fcp: 0, encodings: new Set() };
    cdp.on('Network.responseReceived', (e) => {
      types.set(e.requestId, e.type);
      const enc = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'];
      if (e.type === 'Script') load.encodings.add(enc ?? 'identity');
    });
    cdp.on('Network.loadingFinished', (e) => {
      load.all += e.encodedDataLength;
      if (types.get(e.requestId) === 'Script') {
        load.js += e.encodedDataLength;
        load.scripts++;
      }
    });
    await page.goto(url, { waitUntil: 'load' });
    load.fcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const found = performance.getEntriesByName('first-contentful-paint')[0];
          if (found) return resolve(found.startTime);
          new PerformanceObserver((list) => {
            const e = list.getEntriesByName('first-contentful-paint')[0];
            if (e) resolve(e.startTime);
          }).observe({ type: 'paint', buffered: true } as never);
        }),
    );
    // Late requests the page makes by itself (lazy chunks, the works store, samples) count too.
    await page.waitForLoadState('networkidle').catch(() => undefined);
    return load;
  } finally {
    await ctx.close();
  }
}

interface Measured {
  [page: string]: { js: number; all: number; scripts: number; fcp: number };
}

async function measure(browser: Browser, clientDir: string, encodings: Set<string>): Promise<Measured> {
  const srv = await startTestServer({ clientDir });
  const out: Measured = {};
  try {
    for (const p of PAGES) {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser, srv.url + p.path));
      for (const l of loads) for (const e of l.encodings) encodings.add(e);
      out[p.key] = {
        js: median(loads.map((l) => l.js)),
        all: median(loads.map((l) => l.all)),
        scripts: median(loads.map((l) => l.scripts)),
        fcp: median(loads.map((l) => l.fcp)),
      };
    }
  } finally {
    await srv.stop();
  }
  return out;
}

/** Every site page once (bytes do not depend on the throttling): the page with the most JS. */
async function largestPage(browser: Browser, clientDir: string): Promise<{ path: string; js: number; pages: number }> {
  const srv = await startTestServer({ clientDir });
  let worst = { path: '', js: 0, pages: 0 };
  try {
    for (const p of ALL_PATHS) {
      const l = await coldLoad(browser, srv.url + p, false);
      worst = l.js > worst.js ? { path: p, js: l.js, pages: worst.pages + 1 } : { ...worst, pages: worst.pages + 1 };
    }
  } finally {
    await srv.stop();
  }
  return worst;
}

/** The baseline client: `git archive <ref>` into the temp dir, node_modules linked, built once per ref. */
function baselineClient(ref: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `pixmill-firstload-baseline-${sha}`);
  const dist = path.join(dir, 'dist');
  if (fs.existsSync(path.join(dist, 'index.html'))) return dist;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', '--format=tar', sha], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
  execFileSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return dist;
}

export async function benchFirstLoad(): Promise<BenchRow[]> {
  const clientDir = process.env.CLIENT_DIR ?? path.join(root, 'dist');
  if (!fs.existsSync(path.join(clientDir, 'index.html')))
    throw new Error(`no built client in ${clientDir} (run npx vite build)`);
  const ref = process.env.FIRSTLOAD_BASELINE_REF ?? DEFAULT_BASELINE_REF;
  let baseDir: string | undefined;
  let baseError = '';
  if (ref !== 'none') {
    try {
      baseDir = baselineClient(ref);
    } catch (e) {
      baseError = e instanceof Error ? e.message.split('\n')[0] : String(e);
    }
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const encodings = new Set<string>();
  let now: Measured;
  let base: Measured | undefined;
  let worst: Awaited<ReturnType<typeof largestPage>>;
  try {
    // Baseline first, then this build, in one browser: both under the same load of the machine.
    if (baseDir) base = await measure(browser, baseDir, new Set());
    now = await measure(browser, clientDir, encodings);
    worst = await largestPage(browser, clientDir);
  } finally {
    await browser.close();
  }
  const how = `median of ${RUNS} cold loads, Slow 4G (150 ms RTT, 1.6 Mbit/s), scripts ${[...encodings].join('/')}`;
  const was = (page: string, field: 'js' | 'all' | 'fcp' | 'scripts', unit: 'KB' | 'ms' | '') => {
    if (!base) return baseError ? `; no baseline: ${baseError}` : '';
    const v = base[page][field];
    return `; baseline ${ref}: ${unit === 'KB' ? (v / 1024).toFixed(1) : v.toFixed(0)} ${unit}`.trimEnd();
  };
  const rows: BenchRow[] = [
    {
      name: 'home: JS transferred',
      value: now.home.js / 1024,
      unit: 'KB',
      key: true,
      note: `${now.home.scripts} scripts, ${how}${was('home', 'js', 'KB')}`,
    },
    {
      name: 'home: first contentful paint',
      value: now.home.fcp,
      unit: 'ms',
      key: true,
      note: `${how}${was('home', 'fcp', 'ms')}`,
    },
    {
      name: 'home: all bytes transferred',
      value: now.home.all / 1024,
      unit: 'KB',
      note: `HTML, CSS, JS, images, API answers${was('home', 'all', 'KB')}`,
    },
    {
      name: 'workspace: JS transferred',
      value: now.workspace.js / 1024,
      unit: 'KB',
      key: true,
      note: `/batch-process/, ${now.workspace.scripts} scripts, ${how}${was('workspace', 'js', 'KB')}`,
    },
    {
      name: 'every page: largest JS transferred',
      value: worst.js / 1024,
      unit: 'KB',
      key: true,
      note: `${worst.path} of ${worst.pages} site pages (en), one cold load each, unthrottled; goal ≤ 200`,
    },
    {
      name: 'workspace: first contentful paint',
      value: now.workspace.fcp,
      unit: 'ms',
      note: `${how}${was('workspace', 'fcp', 'ms')}`,
    },
  ];
  if (base) {
    rows.push(
      {
        name: 'baseline home: JS transferred',
        value: base.home.js / 1024,
        unit: 'KB',
        note: `${ref}, ${base.home.scripts} scripts`,
      },
      { name: 'baseline home: first contentful paint', value: base.home.fcp, unit: 'ms', note: ref },
      {
        name: 'baseline workspace: JS transferred',
        value: base.workspace.js / 1024,
        unit: 'KB',
        note: `${ref}, ${base.workspace.scripts} scripts`,
      },
    );
  }
  return rows;
}
