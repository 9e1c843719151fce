// A refused upload tells the user why, in their language, in the upload dialog of the real workspace.
// (a) a guest's second file at once: the plan allows one (refused before upload, spec §5);
// (b) a refusal only the server knows: the plan expired after the page loaded, so the client still
//     allows a 16 MB compress file and the server answers "Your file is too large" (10001);
// (c) a JPEG cut off mid-file: the card says it is damaged and it never reaches Processing.
import { expect, test } from '@playwright/test';
import { admin, AuthPage, expectCredits, PASSWORD, uniqueEmail } from './pages/account.js';
import { truncatedJpeg } from './pages/uploadFiles.js';
import { Workspace } from './pages/workspace.js';

const LANGS = [
  {
    prefix: '',
    onlyOne: 'Only paid users can upload multiple images at the same time',
    firstKept: 'chelsea.png: not uploaded — one image at a time on this plan, so only the first image was kept.',
    tooLarge: 'Your file is too large',
  },
  {
    prefix: '/ja',
    onlyOne: '複数の画像を同時にアップロードできるのは有料ユーザーのみです',
    firstKept: 'chelsea.png: アップロードされていません',
    tooLarge: 'ファイルが大きすぎます',
  },
];

for (const lng of LANGS) {
  test(`guest, two files where the plan allows one: the first is kept, the dialog says why and names the other (${lng.prefix || '/en'})`, async ({
    page,
  }) => {
    const ws = new Workspace(page);
    await ws.open(`${lng.prefix}/batch-process/`);
    await ws.drop('rocket.jpg', 'chelsea.png');
    await expect(ws.messageDialog()).toContainText(lng.onlyOne);
    await expect(ws.messageDialog()).toContainText(lng.firstKept);
    await expect(ws.cards()).toHaveCount(1);
    await expect(ws.cards().first()).toContainText('rocket');
  });

  test(`the server refuses an oversized compress file: its reason reaches the dialog (${lng.prefix || '/en'})`, async ({
    page,
  }) => {
    const email = uniqueEmail('refusal');
    await new AuthPage(page).register(email, PASSWORD);
    await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
    await admin(email, 'grant', email, 'basic');
    const ws = new Workspace(page);
    await ws.openFeaturePage('/image-compressor/', lng.prefix);
    // The page now believes in the basic plan (compress files up to 50 MB)…
    await expectCredits(page, 200);
    // …and the plan ends on the server meanwhile: 5 MB for compress from now on.
    await admin(email, 'expire', email);
    await ws.upload('elephants-5640x3172.jpg');
    const dialog = ws.messageDialog();
    await expect(dialog).toContainText(`elephants-5640x3172.jpg: ${lng.tooLarge}`, { timeout: 60_000 });
    await expect(ws.card('uploadFailed')).toHaveCount(1);
  });
}

test('a cut-off JPEG says what is wrong and stays on Uploaded (not Processing); Continue with nothing uploaded says so', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await page.getByTestId('continue').click();
  await expect(ws.messageDialog()).toContainText('Upload an image first');
  await ws.messageDialog().getByRole('button').last().click();
  await ws.chooseFeature('denoise');
  await ws.upload(truncatedJpeg());
  await expect(ws.messageDialog()).toContainText('cut off', { timeout: 60_000 });
  await ws.messageDialog().getByRole('button').last().click();
  const card = ws.card('uploadFailed');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('upload-reason')).toContainText('damaged or cut off');
  await expect(ws.tab('processing').locator('.count')).toHaveText('0');
  // A reload right away (before the works are saved in their batch) keeps it failed, with its reason.
  await page.reload();
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card.getByTestId('upload-reason')).toContainText('damaged or cut off');
  await expect(ws.tab('processing').locator('.count')).toHaveText('0');
  await ws.tab('processing').click();
  await expect(page.getByTestId('empty-processing')).toContainText('Upload an image on the Uploaded tab');
});
