// Real content pages (about, blog, API docs from the server's routes, privacy
// and terms with the numbers the code uses) in en and de, and a home page without the workspace's code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { RETENTION_DAYS_DEFAULT } from '../../src/shared/domain/plans.js';
import { LOCAL_STORAGE_EXPIRY_MS } from '../../src/shared/domain/constants.js';
import { BLOG_POSTS } from '../../src/shared/sitemap.js';
import { AUTHOR_IDS, AUTHORS } from '../../src/pages/content/authors.js';
import { MODEL_BYTES, RUNTIME_BYTES } from '../../src/shared/onDeviceModels.js';
import { OWN_NETS } from '../../src/shared/imaging/netFiles.js';
import { UPDATE_CHECK_MS } from '../../src/pwa/updateCheck.js';
import { ContentPages } from './pages/content.js';

const openApi = JSON.parse(fs.readFileSync('src/pages/content/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
/** Every call of the OpenAPI document the page shows, as "METHOD path". */
const apiCalls = Object.entries(openApi.paths).flatMap(([p, ops]) =>
  Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
);
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const MB = (bytes: number) => `${mb(bytes)}\u00a0MB`;
const serverFacts = JSON.parse(fs.readFileSync('src/pages/content/serverFacts.json', 'utf8')) as {
  userTokenDays: number;
  guestTokenDays: number;
};

test.describe('content pages', () => {
  test('about: who we are and every engine, neural or classical (en)', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/about-us/');
    await expect(c.heading()).toHaveText('About us');
    await expect(c.sectionHeadings()).toContainText(['Who we are', 'What the engines are, honestly']);
    const table = page.getByTestId('engine-table');
    await expect(table.locator('tbody tr')).toHaveCount(11);
    await expect(table).toContainText('super-resolution networks');
    const row = (feature: string) =>
      table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: feature, exact: true }) });
    await expect(row('Denoise').locator('td').nth(1)).toHaveText('neural');
    await expect(row('Sharpen').locator('td').nth(1)).toHaveText('classical');
    await expect(row('Remove background').locator('td').nth(1)).toHaveText('neural');
    await expect(row('Enlarge').locator('td').nth(1)).toHaveText('neural');
    await expect(c.englishOnlyNote()).toHaveCount(0);
  });

  test('about in German: translated title and intro, a German note that the article is English', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/about-us/', 'de');
    await expect(c.heading()).toHaveText('Über uns');
    await expect(page.locator('main .lead')).toContainText('Bild-Arbeitsplatz');
    await expect(c.englishOnlyNote()).toHaveText('Dieser Text ist nur auf Englisch verfügbar.');
    await expect(page.getByTestId('engine-table')).toContainText('super-resolution networks');
  });

  test('blog: every post listed, a post opens with its sections, an unknown one says so (en, de)', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/posts/');
    await expect(c.postCards()).toHaveCount(BLOG_POSTS.length);
    await c.postCards().filter({ hasText: 'How enlarge works' }).click();
    await expect(page).toHaveURL(/\/posts\/how-enlarge-works\/$/);
    await expect(c.heading()).toContainText('How enlarge works');
    await expect(c.sectionHeadings()).toContainText(['A network that draws the missing detail', 'Tiles without seams']);
    await expect(page.locator('main')).toContainText('back-projection');

    await c.open('/posts/old-photo-repair/', 'de');
    await expect(c.heading()).toContainText('Old photo repair');
    await expect(c.englishOnlyNote()).toBeVisible();
    await expect(page.locator('main')).toContainText('Alle Artikel');
    await expect(page.locator('main nav.toc li')).toHaveCount(3);
    await expect(page.locator('main section ol li')).toHaveCount(4); // repair, denoise, colorize, enlarge

    await c.open('/posts/no-such-post/');
    await expect(page.getByTestId('blog-missing')).toContainText('There is no article at this address.');
  });

  test('API docs: the OpenAPI document, grouped, with each call’s fields and example (en, de)', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/api-docs/');
    const rows = await c.apiRows();
    expect(rows.sort()).toEqual([...apiCalls].sort());
    expect(rows).toContain('GET /web_api/v1/progress');
    expect(rows).toContain('POST /web_api/v1/transform');
    expect(rows).toContain('POST /api/contact/send');
    await expect(page.getByTestId('api-count')).toContainText(`${apiCalls.length} calls`);
    // grouped as a developer works: authenticate first, then upload, process, poll, download, account
    expect((await c.apiGroups()).slice(0, 6)).toEqual([
      'Authenticate',
      'Upload',
      'Process',
      'Poll',
      'Download',
      'Account',
    ]);
    const progress = c.apiCall('GET /web_api/v1/progress');
    await expect(progress.getByTestId('api-fields')).toContainText('trans_id');
    await expect(progress.locator('pre')).toContainText('/web_api/v1/progress?trans_id=');
    await expect(c.apiCall('POST /web_api/v1/transform').getByTestId('api-fields')).toContainText('jconfig');
    await expect(page.getByTestId('api-quickstart')).toBeVisible();

    await c.open('/api-docs/', 'de');
    await expect(c.heading()).toHaveText('API-Dokumentation');
    await expect(page.getByTestId('api-fields').first().locator('th').first()).toHaveText('Feld');
    expect(await c.apiRows()).toContain('GET /web_api/v1/progress');
  });

  test('privacy and terms state the numbers the code uses, and the server-configured retention', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/privacy-policy/');
    await expect(c.heading()).toHaveText('Privacy policy');
    await expect(page.getByTestId('privacy-images')).toContainText(`${RETENTION_DAYS_DEFAULT.guest} days for guests`);
    await expect(page.getByTestId('privacy-account')).toContainText(
      `${serverFacts.guestTokenDays} days after its last use`,
    );
    await expect(page.getByTestId('privacy-account')).toContainText(
      `${serverFacts.userTokenDays} days after the last use`,
    );
    // The guest's own retention as this server answers it (GET /api/v2/retention).
    await expect(page.getByTestId('privacy-your-retention')).toBeVisible();
    const token = await page.evaluate(() =>
      decodeURIComponent(document.cookie.match(/(?:^|; )guest_token=([^;]+)/)?.[1] ?? ''),
    );
    expect(token).not.toBe('');
    const answer = (await (
      await page.request.get('/api/v2/retention', { params: { guest_token_v2: token } })
    ).json()) as { data: { retention_days: number } };
    await expect(page.getByTestId('privacy-your-retention')).toHaveText(
      `This server keeps your results and uploads for ${answer.data.retention_days} days (your current plan).`,
    );

    await c.open('/privacy-policy/', 'de');
    await expect(c.heading()).toHaveText('Datenschutz');
    await expect(page.getByTestId('privacy-your-retention')).toContainText(`${answer.data.retention_days} Tage`);

    await c.open('/term-of-use/');
    await expect(c.heading()).toHaveText('Terms of use');
    await expect(c.sectionHeadings()).toContainText(['Using Pixmill', 'Credits and plans']);
  });
  test('authors: each team with its bio and its posts; every post has one author, and its byline leads there (en)', async ({
    page,
  }) => {
    const c = new ContentPages(page);
    await c.open('/author/');
    await expect(c.heading()).toHaveText('Authors');
    await expect(c.sectionHeadings()).toContainText([...AUTHOR_IDS.map((id) => AUTHORS[id].name), 'How we write']);
    await expect(c.englishOnlyNote()).toHaveCount(0);
    await expect(c.author('engines')).toContainText('networks we train');
    // Every post is listed under exactly one team.
    const listed = new Map<string, string>();
    for (const id of AUTHOR_IDS) {
      const hrefs = await c
        .author(id)
        .locator('[data-testid="author-posts"] a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      for (const h of hrefs) {
        expect(listed.has(h), `${h} listed twice`).toBe(false);
        listed.set(h, id);
      }
    }
    expect([...listed.keys()].sort()).toEqual(BLOG_POSTS.map((slug) => `/posts/${slug}/`).sort());
    // A post's byline names the team that lists it and links to that team's block.
    const [href, id] = [...listed.entries()].find(([, a]) => a === 'server')!;
    await c.author(id).locator(`a[href="${href}"]`).click();
    await expect(page.getByTestId('byline')).toHaveText(`By ${AUTHORS.server.name}`);
    await page.getByTestId('byline').click();
    await expect(page).toHaveURL(/\/author\/#server$/);
    await expect(page.locator('#server-h')).toBeInViewport();
    await expect(c.author('server')).toContainText('Privacy policy');
    // The blog index shows the bylines too.
    await c.open('/posts/');
    await expect(c.postCards().filter({ hasText: 'How enlarge works' }).getByTestId('byline')).toHaveText(
      `By ${AUTHORS.engines.name}`,
    );
  });

  test('authors in German: translated title and chrome, English bios with the note', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/author/', 'de');
    await expect(c.heading()).toHaveText('Autoren');
    await expect(page.locator('main .lead')).toContainText('drei Pixmill-Teams');
    await expect(c.englishOnlyNote()).toHaveText('Dieser Text ist nur auf Englisch verfügbar.');
    await expect(c.author('web-app').locator('h3').first()).toHaveText('Blogartikel');
    await expect(c.author('web-app')).toContainText('onnxruntime-web');
    await expect(c.author('web-app').getByRole('link', { name: 'Background removal on your device' })).toHaveAttribute(
      'href',
      '/de/posts/background-removal-on-your-device/',
    );
    await c.open('/posts/old-photo-repair/', 'de');
    await expect(page.getByTestId('byline')).toHaveText(`Von ${AUTHORS.engines.name}`);
  });

  test('desktop app: installing per browser, offline with the on-device sizes, storage, updates, limits (en)', async ({
    page,
  }) => {
    const c = new ContentPages(page);
    await c.open('/download-win/');
    await expect(c.heading()).toHaveText('Pixmill as a desktop app');
    await expect(c.sectionHeadings()).toHaveText([
      'Install it',
      'What works without a network',
      'What it stores on your computer',
      'Updates',
      'Uninstalling',
      'Honest limits',
    ]);
    const steps = page.getByTestId('install-steps');
    await expect(steps).toContainText('Add to Dock');
    await expect(steps).toContainText('Add to Home Screen');
    await expect(steps).toContainText('Install Pixmill');
    const table = page.getByTestId('ondevice-table');
    await expect(table.locator('tbody tr')).toHaveCount(3);
    await expect(table.locator('tbody tr').nth(0)).toContainText(
      `${MB(MODEL_BYTES[OWN_NETS.x2Small])} model + ${MB(RUNTIME_BYTES)} runtime`,
    );
    await expect(table.locator('tbody tr').nth(1)).toContainText(`${MB(MODEL_BYTES['isnet-small'])} model`);
    await expect(page.locator('#storage')).toContainText(
      `for ${LOCAL_STORAGE_EXPIRY_MS / 3_600_000} hours, the app clears it`,
    );
    await expect(page.locator('#update')).toContainText(`every ${UPDATE_CHECK_MS / 60_000} minutes`);
    await expect(page.locator('#offline')).toContainText('Waiting for network');
    await expect(page.locator('#limits')).toContainText('no Windows installer');
    // What this browser really holds for the site (navigator.storage.estimate()).
    await expect(page.getByTestId('storage-usage')).toHaveText(
      /^Right now this browser holds \d+\.\d MB for Pixmill\.$/,
    );
  });

  test('desktop app: our install button appears only when the browser offers installation, and opens its dialog', async ({
    page,
  }) => {
    const c = new ContentPages(page);
    await c.open('/download-win/');
    // Playwright's contexts are incognito, where Chromium never offers installation: no button, the steps instead.
    await expect(c.installPanel()).toHaveAttribute('data-state', 'unavailable');
    await expect(page.getByTestId('install-button')).toHaveCount(0);
    await expect(page.getByTestId('install-steps-hint')).toContainText('has not offered installation');

    await c.offerInstall('dismissed');
    await expect(page.getByTestId('install-button')).toHaveText('Install Pixmill');
    await page.getByTestId('install-button').click();
    await expect(page.getByTestId('install-steps-hint')).toContainText('Installation was cancelled');
    expect(await c.installPromptCalls()).toBe(1);

    await c.offerInstall('accepted');
    await page.getByTestId('install-button').click();
    await expect(page.getByTestId('install-installed')).toHaveText('You are using the installed Pixmill app.');
    expect(await c.installPromptCalls()).toBe(1);
  });

  // Installability needs the service worker (the browser project blocks it by default: playwright.config.ts).
  test.describe('with the service worker', () => {
    test.use({ serviceWorkers: 'allow' });

    test('desktop app: in a real Chromium profile the browser offers installation and our button appears', async ({
      baseURL,
    }, info) => {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-install-'));
      const context = await chromium.launchPersistentContext(profile, { ...info.project.use.launchOptions, baseURL });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const c = new ContentPages(page);
        await c.open('/download-win/');
        await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
        await page.reload(); // installable once the service worker controls the page
        await expect(c.installPanel()).toHaveAttribute('data-state', 'available');
        await expect(page.getByTestId('install-button')).toHaveText('Install Pixmill');
        // The browser's own dialog opens (headless shows it nowhere and never answers): the spent offer disables the button.
        await page.getByTestId('install-button').click();
        await expect(c.installPanel()).toHaveAttribute('data-state', 'asking');
        await expect(page.getByTestId('install-button')).toBeDisabled();
      } finally {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
      }
    });
  });

  test('desktop app in German: translated title and install chrome, the English-only note', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/download-win/', 'de');
    await expect(c.heading()).toHaveText('Pixmill als Desktop-App');
    await expect(page.locator('main .lead')).toContainText('Web-App, die Sie installieren können');
    await expect(c.englishOnlyNote()).toHaveText('Dieser Text ist nur auf Englisch verfügbar.');
    await expect(page.getByTestId('install-steps-hint')).toContainText('keine Installation angeboten');
    await expect(page.getByTestId('ondevice-table')).toContainText(MB(MODEL_BYTES['isnet-small']));
    await c.offerInstall('accepted');
    await expect(page.getByTestId('install-button')).toHaveText('Pixmill installieren');
  });

  test('French and Japanese: translated titles and the English-only note', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/author/', 'fr');
    await expect(c.heading()).toHaveText('Auteurs');
    await expect(page).toHaveTitle('Auteurs · Pixmill');
    await expect(c.englishOnlyNote()).toHaveText('Ce texte n’est disponible qu’en anglais.');
    await expect(c.englishOnlyNote()).toHaveAttribute('lang', 'fr');

    await c.open('/download-win/', 'ja');
    await expect(c.heading()).toHaveText('デスクトップアプリとしての Pixmill');
    await expect(c.englishOnlyNote()).toHaveText('この文章は英語のみでご覧いただけます。');
    await expect(page.getByTestId('install-steps-hint')).toContainText('インストールの提案がありません');
    await expect(page.locator('main nav.toc strong')).not.toHaveText('On this page');
  });
});

test('the home page loads neither Dexie nor the worker bridge, and creates no local database', async ({ page }) => {
  const scripts = ContentPages.trackScripts(page);
  await page.goto('/');
  await expect(page.getByTestId('before-after')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const bodies = await Promise.all(scripts.map((s) => s.body));
  expect(bodies.length).toBeGreaterThan(0);
  // Dexie's own error class name and comlink's proxy marker survive minification as strings.
  expect(bodies.filter((b) => b.includes('DatabaseClosedError'))).toHaveLength(0);
  expect(bodies.filter((b) => b.includes('Comlink.proxy'))).toHaveLength(0);
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain('pixmill');
  // …while the workspace still loads them when a file is stored (the first use).
  await page.goto('/batch-process/');
  await expect(page.locator('main')).toBeVisible();
});
