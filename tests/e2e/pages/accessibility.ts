/**
 * Accessibility checks in the page (issue 50 point 9): axe-core's WCAG 2.1 A/AA rules through
 * @axe-core/playwright, the page's layout shift (CLS, from a PerformanceObserver installed before the
 * app's scripts run), the console's errors, and moves between the site's pages through its own router.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page } from '@playwright/test';

/** The WCAG 2.0 and 2.1 levels A and AA (axe's tags). */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Layout shift a page may show at most (Lighthouse and Core Web Vitals call < 0.1 good). */
export const CLS_MAX = 0.1;

type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

const describe = (what: string, violations: Violations): string[] =>
  violations.flatMap((v) =>
    v.nodes.map((n) => `${what}: ${v.id} at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );

/**
 * One line per violation and node: rule, where, what to fix (readable in a failed assertion).
 * Legacy mode runs axe in the page itself: the default mode opens a blank page per check to merge
 * frames' results (the app has no frames), which made each check ~2.5× slower here.
 */
export async function axeViolations(page: Page, what: string): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(WCAG_AA_TAGS).setLegacyMode(true).analyze();
  return describe(what, r.violations);
}

/**
 * The same check again in a document axeViolations() already checked, after a move through the app's
 * router: the axe-core it put in the page runs again with the same rules, without injecting its
 * ~0.5 MB source a second time.
 */
export async function axeViolationsAgain(page: Page, what: string): Promise<string[]> {
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe?: { run(ctx: Document, o: object): Promise<{ violations: unknown }> } })
      .axe;
    if (!axe) throw new Error('axe is not in this page: check it with axeViolations() first');
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations as Violations;
  }, WCAG_AA_TAGS);
  return describe(what, violations);
}

/** Asserts axe finds no WCAG 2.1 A/AA violation in the page as it is now. */
export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  expect(await axeViolations(page, what)).toEqual([]);
}

/**
 * Before any page of the context loads: sums its layout shifts not caused by input (window.__cls),
 * as Lighthouse's CLS does for a load. Reset it with resetLayoutShift() before a move inside the app.
 */
export async function watchLayoutShift(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

export const layoutShift = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __cls: number }).__cls);

export const resetLayoutShift = (page: Page): Promise<void> =>
  page.evaluate(() => void ((window as unknown as { __cls: number }).__cls = 0));

/** Collects the console's errors and the page's uncaught exceptions from now on. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

/**
 * Shows `path` through the app's own router (no document load) and waits until that page is the one
 * shown: every page sets its own document title.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const before = await page.title();
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect.poll(() => page.title(), { message: `${path} shows its own title` }).not.toBe(before);
  await settle(page);
}

/** Waits until the page's lazy parts are shown and the visitor's account is known (its credits shown). */
export async function settle(page: Page): Promise<void> {
  await expect(page.locator('.route-loading')).toHaveCount(0);
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.getByTestId('credits')).toBeVisible();
}
