/**
 * The PWA under the server's Content-Security-Policy: pages, the image worker (pica's wasm
 * kernels and its blob: tile workers), previews from blob: URLs and the service worker all run with
 * no violation; an injected inline script is refused, which shows the policy is enforced and seen.
 */
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';

// the service worker must load under the CSP too (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

const FIXTURE = path.resolve('tests/fixtures/chelsea.png');

/** Every CSP violation the browser reports, in the page and in its workers. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  const keep = (where: string, text: string) => {
    if (/content security policy|refused to/i.test(text)) seen.push(`${where}: ${text}`);
  };
  page.on('console', (m) => keep(m.worker() ? 'worker' : 'page', m.text()));
  page.on('worker', (w) => w.on('console', (m) => keep(`worker ${w.url()}`, m.text())));
  page.on('pageerror', (e) => keep('pageerror', e.message));
  return seen;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
  });
});

const pageViolations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

test('pages and the service worker load under the CSP without a violation', async ({ page }) => {
  const seen = watchViolations(page);
  const res = await page.goto('/');
  const csp = res!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(res!.headers()['x-frame-options']).toBe('DENY');
  await expect(page.locator('#root')).not.toBeEmpty();
  // the service worker registers and controls the page (script from 'self')
  expect(await page.evaluate(async () => !!(await navigator.serviceWorker.ready).active)).toBe(true);
  for (const p of ['/de/pricing/', '/batch-process/', '/image-enlarger/']) {
    await page.goto(p);
    await expect(page.locator('#root')).not.toBeEmpty();
  }
  expect(await pageViolations(page)).toEqual([]);
  expect(seen).toEqual([]);
});

test('the image worker resizes with pica (wasm + blob: workers) and shows blob: previews without a violation', async ({
  page,
}) => {
  const seen = watchViolations(page);
  await page.goto('/image-resizer/');
  await page.locator('input[type=file]').setInputFiles(FIXTURE);
  const img = page.locator('.tool-canvas img');
  await expect(img).toBeVisible();
  await expect(page.locator('.tool-canvas')).toHaveAttribute('aria-busy', 'false');
  const before = await img.getAttribute('src');
  await page.locator('input[type=number]').fill('200');
  await expect(img).not.toHaveAttribute('src', before ?? '');
  await expect(page.locator('.tool-canvas')).toHaveAttribute('aria-busy', 'false');
  await expect(img).toHaveAttribute('data-runtime', 'worker');
  expect(await img.getAttribute('src')).toMatch(/^blob:/);
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(200);

  // What pica needs, checked directly in the image worker: compiling wasm and starting a blob: worker.
  const worker = page.workers().find((w) => /src-worker|index/.test(w.url())) ?? page.workers()[0];
  expect(worker, 'the image worker is running').toBeTruthy();
  const inWorker = await worker!.evaluate(async () => {
    // (module) — the smallest valid WebAssembly module
    const wasm = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
      () => 'ok',
      (e: Error) => e.message,
    );
    const blobWorker = await new Promise<string>((resolve) => {
      try {
        const w = new Worker(URL.createObjectURL(new Blob(['postMessage("ok")'], { type: 'text/javascript' })));
        w.onmessage = (m) => resolve(String(m.data));
        w.onerror = () => resolve('error');
      } catch (e) {
        resolve((e as Error).message);
      }
    });
    return { wasm, blobWorker };
  });
  expect(inWorker).toEqual({ wasm: 'ok', blobWorker: 'ok' });
  expect(await pageViolations(page)).toEqual([]);
  expect(seen).toEqual([]);
});

test('the policy is enforced: an injected inline script does not run and is reported', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
  const { ran, blocked } = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = '(window).__injected = true';
    const violation = new Promise<string>((r) =>
      document.addEventListener('securitypolicyviolation', (e) => r(e.effectiveDirective), { once: true }),
    );
    // An inline script that is allowed runs during append; a blocked one fires the violation event.
    document.head.append(s);
    const ran = (window as unknown as { __injected?: boolean }).__injected === true;
    return { ran, blocked: ran ? null : await violation };
  });
  expect(ran).toBe(false);
  expect(blocked).toMatch(/^script-src/);
  const v = await pageViolations(page);
  expect(v.some((x) => x.startsWith('script-src'))).toBe(true);
});
