// Issue 14 items 1 and 7: real content pages (about, blog, API docs from the server's routes, privacy
// and terms with the numbers the code uses) in en and de, and a home page without the workspace's code.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { RETENTION_DAYS_DEFAULT } from '../../src/domain/plans.js';
import { BLOG_POSTS } from '../../src/app/sitemap.js';
import { ContentPages } from './pages/content.js';

const apiDocs = JSON.parse(fs.readFileSync('src/pages/content/apiRoutes.json', 'utf8')) as { routes: { method: string; path: string }[] };
const serverFacts = JSON.parse(fs.readFileSync('src/pages/content/serverFacts.json', 'utf8')) as { userTokenDays: number; guestTokenDays: number };

test.describe('content pages', () => {
  test('about: who we are and every engine, neural or classical (en)', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/about-us/');
    await expect(c.heading()).toHaveText('About us');
    await expect(c.sectionHeadings()).toContainText(['Who we are', 'What the engines are, honestly']);
    const table = page.getByTestId('engine-table');
    await expect(table.locator('tbody tr')).toHaveCount(11);
    await expect(table).toContainText('ESRGAN');
    const row = (feature: string) => table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: feature, exact: true }) });
    await expect(row('Denoise').locator('td').nth(1)).toHaveText('classical');
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
    await expect(page.getByTestId('engine-table')).toContainText('ESRGAN');
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

  test('API docs: the server route table, progress route included (en, de)', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/api-docs/');
    const rows = await c.apiRows();
    expect(rows).toHaveLength(apiDocs.routes.length);
    expect(rows).toContain('GET /web_api/v1/progress');
    expect(rows).toContain('POST /web_api/v1/transform');
    expect(rows).toContain('POST /api/contact/send');
    await expect(page.getByTestId('api-count')).toContainText(`${apiDocs.routes.length} routes`);
    await expect(page.getByTestId('api-route').filter({ hasText: '/web_api/v1/progress' })).toContainText('trans_id');

    await c.open('/api-docs/', 'de');
    await expect(c.heading()).toHaveText('API-Dokumentation');
    await expect(page.locator('.api-table th').first()).toHaveText('Methode');
    expect(await c.apiRows()).toContain('GET /web_api/v1/progress');
  });

  test('privacy and terms state the numbers the code uses, and the server-configured retention', async ({ page }) => {
    const c = new ContentPages(page);
    await c.open('/privacy-policy/');
    await expect(c.heading()).toHaveText('Privacy policy');
    await expect(page.getByTestId('privacy-images')).toContainText(`${RETENTION_DAYS_DEFAULT.guest} days for guests`);
    await expect(page.getByTestId('privacy-account')).toContainText(`${serverFacts.guestTokenDays} days after its last use`);
    await expect(page.getByTestId('privacy-account')).toContainText(`${serverFacts.userTokenDays} days after the last use`);
    // The guest's own retention as this server answers it (GET /api/v2/retention).
    await expect(page.getByTestId('privacy-your-retention')).toBeVisible();
    const token = await page.evaluate(() => decodeURIComponent(document.cookie.match(/(?:^|; )guest_token=([^;]+)/)?.[1] ?? ''));
    expect(token).not.toBe('');
    const answer = (await (await page.request.get('/api/v2/retention', { params: { guest_token_v2: token } })).json()) as { data: { retention_days: number } };
    await expect(page.getByTestId('privacy-your-retention')).toHaveText(`This server keeps your results and uploads for ${answer.data.retention_days} days (your current plan).`);

    await c.open('/privacy-policy/', 'de');
    await expect(c.heading()).toHaveText('Datenschutz');
    await expect(page.getByTestId('privacy-your-retention')).toContainText(`${answer.data.retention_days} Tage`);

    await c.open('/term-of-use/');
    await expect(c.heading()).toHaveText('Terms of use');
    await expect(c.sectionHeadings()).toContainText(['Using Pixmill', 'Credits and plans']);
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
