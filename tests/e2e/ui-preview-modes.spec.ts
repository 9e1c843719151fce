// One stage size in Compare and Side by side, a small navigator inside the
// image on desktop and mobile, hold-to-compare on touch screens in every mode.
import { expect, test } from '@playwright/test';
import { finishedSample, Preview, type Rect } from './pages/preview.js';
import { shot, Workspace } from './pages/workspace.js';

const inside = (a: Rect, b: Rect) =>
  a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;

for (const v of [
  { name: 'desktop', width: 1366, height: 900, touch: false },
  { name: 'mobile', width: 375, height: 812, touch: true },
]) {
  test.describe(v.name, () => {
    test.use({ viewport: { width: v.width, height: v.height }, hasTouch: v.touch, isMobile: v.touch });

    test('Compare and Side by side share one stage size; zoomed in, the navigator is small and inside the picture', async ({
      page,
      context,
      baseURL,
    }) => {
      await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
      const ws = new Workspace(page);
      const pv = new Preview(page);
      await finishedSample(page, ws);
      await pv.openFromToast();
      // Denoise opens side by side (spec §2).
      const side = await pv.stageBox();
      await pv.mode('compare');
      const compare = await pv.stageBox();
      expect(Math.abs(compare.width - side.width)).toBeLessThanOrEqual(1);
      expect(Math.abs(compare.height - side.height)).toBeLessThanOrEqual(1);
      expect(compare.width).toBeLessThanOrEqual(v.width);
      // 1:1 then wheel in: the navigator shows, at most half the 304×190 box, inside the visible picture.
      await page.getByTestId('zoom-1').click();
      await pv.resultLoaded();
      await pv.wheelIn(3);
      await expect(pv.navigator()).toBeVisible();
      for (const mode of ['compare', 'side'] as const) {
        await pv.mode(mode);
        await expect(pv.navigator()).toBeVisible();
        const nav = (await pv.navigator().boundingBox())!;
        expect(nav.width, mode).toBeLessThanOrEqual(304 / 2 + 1);
        expect(
          inside(nav, await pv.resultVisibleRect()),
          `${mode}: ${JSON.stringify([nav, await pv.resultVisibleRect()])}`,
        ).toBe(true);
        await page.screenshot({ path: shot(`preview-${mode}-zoomed-${v.name}`) });
      }
      // The hold-to-compare button on every device: a keyboard holds it with Space or Enter (issue 47).
      await expect(pv.holdButton()).toHaveCount(1);
    });
  });
}

test.describe('touch', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('hold-to-compare works in every mode: fit compare, zoomed compare, side by side', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
    const ws = new Workspace(page);
    const pv = new Preview(page);
    await finishedSample(page, ws);
    await page.getByTestId('ready-preview').click();
    // Side by side (denoise's default): press and hold shows the original in the result's pane.
    await pv.resultLoaded();
    const result = await pv.afterSrc();
    const original = await pv.beforeSrc();
    expect(result).not.toBe(original);
    for (const step of ['side', 'compare-1:1'] as const) {
      if (step === 'compare-1:1') {
        await pv.mode('compare');
        await page.getByTestId('zoom-1').click();
      }
      await pv.settled();
      const b = (await pv.holdButton().boundingBox())!;
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down();
      await expect(pv.holdButton(), step).toHaveAttribute('data-showing', 'original');
      // The result steps aside; the original fills the result's pane (side: its own copy there; compare: unclipped).
      await expect(page.getByTestId('img-after'), step).toBeHidden();
      if (step === 'side') await expect(page.getByTestId('img-held')).toHaveAttribute('src', original!);
      else
        expect(await page.getByTestId('img-before').evaluate((i) => (i as HTMLElement).style.clipPath), step).toBe('');
      await page.screenshot({ path: shot(`preview-hold-${step.replace(':', '')}`) });
      await page.mouse.up();
      await expect(pv.holdButton()).toHaveAttribute('data-showing', 'result');
      await expect(page.getByTestId('img-after')).toBeVisible();
      await expect(page.getByTestId('img-held')).toHaveCount(0);
      expect(await pv.afterSrc()).toBe(result);
    }
    // Fit in Compare: the PWA's hold-to-compare view.
    await page.getByTestId('zoom-fit').click();
    await expect(page.getByTestId('hold-to-compare')).toHaveAttribute('data-showing', 'result');
  });
});
