/**
 * First load of the home page (npm run bench firstload): JavaScript transferred (bytes on the wire,
 * i.e. compressed) and first contentful paint, in Chromium on the built PWA served by the real
 * server, with the network throttled through CDP to Lighthouse's mobile "Slow 4G" (150 ms RTT,
 * 1.6 Mbit/s down, 750 kbit/s up) and a cold cache. Goal (issue 14): ≤ 150 KB JS, FCP ≤ 1.5 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startTestServer } from '../server/testing/server.js';

interface Row {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const root = path.resolve(import.meta.dirname, '..');
const RUNS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

export async function benchFirstLoad(): Promise<Row[]> {
  const clientDir = process.env.CLIENT_DIR ?? path.join(root, 'dist');
  if (!fs.existsSync(path.join(clientDir, 'index.html'))) throw new Error(`no built client in ${clientDir} (run npx vite build)`);
  const srv = await startTestServer({ clientDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const js: number[] = [];
  const all: number[] = [];
  const fcp: number[] = [];
  const encodings = new Set<string>();
  try {
    for (let i = 0; i < RUNS; i++) {
      // A fresh profile each run: a first visit, nothing cached, no service worker yet.
      const ctx = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await ctx.newPage();
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      const types = new Map<string, string>();
      let jsBytes = 0;
      let allBytes = 0;
      cdp.on('Network.responseReceived', (e) => {
        types.set(e.requestId, e.type);
        const enc = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'];
        if (e.type === 'Script') encodings.add(enc ?? 'identity');
      });
      cdp.on('Network.loadingFinished', (e) => {
        allBytes += e.encodedDataLength;
        if (types.get(e.requestId) === 'Script') jsBytes += e.encodedDataLength;
      });
      await page.goto(srv.url + '/', { waitUntil: 'load' });
      const paint = await page.evaluate(
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
      // Late requests the page makes by itself (lazy chunks, samples) count too.
      await page.waitForLoadState('networkidle').catch(() => undefined);
      js.push(jsBytes);
      all.push(allBytes);
      fcp.push(paint);
      await ctx.close();
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
  const note = `median of ${RUNS} cold loads, Slow 4G (150 ms RTT, 1.6 Mbit/s); script encodings: ${[...encodings].join(', ')}`;
  return [
    { name: 'home: JS transferred', value: median(js) / 1024, unit: 'KB', note },
    { name: 'home: all bytes transferred', value: median(all) / 1024, unit: 'KB', note: 'HTML, CSS, JS, images, API answers' },
    { name: 'home: first contentful paint', value: median(fcp), unit: 'ms', note },
  ];
}
