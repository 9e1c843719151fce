// Drag and drop: the full-screen overlay appears while files are dragged over the window, hides by
// itself after 3 s, and a drop on it uploads; the grid/list choice is kept in the activeMode cookie;
// the workspace is reachable with the keyboard.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fixture, Workspace } from './pages/workspace.js';

async function dragFile(page: Page, selector: string | null, type: 'dragenter' | 'drop', file: string) {
  const b64 = fs.readFileSync(fixture(file)).toString('base64');
  await page.evaluate(
    ({ selector, type, b64, name }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: 'image/png' }));
      const target = selector ? document.querySelector(selector)! : window;
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { selector, type, b64, name: file },
  );
}

test('drop overlay shows on drag, hides after 3 s, and a drop uploads', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await dragFile(page, null, 'dragenter', 'chelsea.png');
  const overlay = page.getByTestId('drop-overlay');
  await expect(overlay).toBeVisible();
  await ws.screenshot('dnd-01-overlay');
  await expect(overlay).toBeHidden({ timeout: 6_000 });

  await dragFile(page, null, 'dragenter', 'chelsea.png');
  await expect(overlay).toBeVisible();
  await dragFile(page, '[data-testid="drop-overlay"]', 'drop', 'chelsea.png');
  await expect(overlay).toBeHidden();
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
  expect((await context.cookies()).find((c) => c.name === 'isFirstDrag')?.value).toBe('1');
});

test('grid/list choice is kept in the activeMode cookie (default grid)', async ({ page, context }) => {
  const ws = new Workspace(page);
  await ws.open();
  await expect(page.getByTestId('view-grid')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('view-list').click();
  expect((await context.cookies()).find((c) => c.name === 'activeMode')?.value).toBe('list');
  await page.reload();
  await expect(page.getByTestId('view-list')).toHaveAttribute('aria-pressed', 'true');
});

test('keyboard: skip link, tabs and the upload button are reachable with a visible focus ring', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.open();
  await page.keyboard.press('Tab');
  await expect(page.getByText('Skip to content')).toBeFocused();
  // Walk forward until the "Choose images" button has focus.
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.getByTestId('browse').evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  const ring = await page.getByTestId('browse').evaluate((el) => getComputedStyle(el).boxShadow);
  expect(ring).not.toBe('none');
  await ws.screenshot('dnd-02-keyboard');
});

test('refused files show the upload texts: wrong type, and several files for a guest', async ({ page }, info) => {
  const ws = new Workspace(page);
  await ws.open();
  const txt = info.outputPath('notes.txt');
  fs.writeFileSync(txt, 'hello');
  await page.getByTestId('file-input').setInputFiles(txt);
  const dialog = page.getByTestId('message-dialog');
  await expect(dialog).toContainText('notes.txt: Only JPG、JPEG and PNG images are supported.');
  await dialog.getByRole('button', { name: 'OK' }).click();
  // The guest's input takes one file; of two dropped at once the first is kept, the other refused with the plan's text.
  await dragFile(page, null, 'dragenter', 'chelsea.png');
  await page.evaluate(async () => {
    const dt = new DataTransfer();
    for (const name of ['a.png', 'b.png']) {
      const blob = await (await fetch('/samples/enlarge/cat.jpg')).blob();
      dt.items.add(new File([blob], name.replace('.png', '.jpg'), { type: 'image/jpeg' }));
    }
    document
      .querySelector('[data-testid="drop-overlay"]')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await expect(page.getByTestId('message-dialog')).toContainText(
    'Only paid users can upload multiple images at the same time',
  );
  // The first is kept: only b.jpg is named as left out.
  await expect(page.getByTestId('message-dialog')).toContainText('b.jpg: not uploaded');
  await expect(page.getByTestId('message-dialog')).not.toContainText('a.jpg');
  await expect(ws.cards()).toHaveCount(1);
});
