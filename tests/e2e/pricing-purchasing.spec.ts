// A server without a payment provider (the default): the pricing page still shows the plans, says
// purchasing is not configured, and a logged-in user cannot start a checkout.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server.js';

// Its own server: the shared e2e server turns the built-in provider on.
let srv: TestServer;
test.beforeAll(async () => {
  srv = await startTestServer({
    paymentProvider: 'none',
    clientDir: process.env.CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist'),
  });
});
test.afterAll(() => srv?.stop());

test('pricing without a payment provider shows the plans and says purchasing is not configured', async ({ page }) => {
  await page.goto(`${srv.url}/register/`);
  await page.getByTestId('reg-email').fill('pricing-off@example.com');
  await page.getByTestId('reg-password').fill('passw0rdA1');
  await page.getByTestId('reg-confirm').fill('passw0rdA1');
  await page.getByTestId('register-submit').click();
  await expect.poll(async () => (await page.request.get(`${srv.url}/api/account/me`)).status()).toBe(200);

  await page.goto(`${srv.url}/de/pricing/`);
  await expect(page.getByTestId('purchasing-off')).toHaveText(
    'Auf diesem Server ist kein Kauf eingerichtet. Wenden Sie sich für einen Tarif bitte an den Betreiber.',
  );
  await expect(page.getByTestId('product-606836')).toBeVisible();
  await expect(page.getByTestId('price-pro')).toContainText('19,90');
  await expect(page.getByTestId('choose-pro')).toBeDisabled();
  expect(await srv.ctx.db.selectFrom('payment_checkouts').select('id').execute()).toHaveLength(0);
});
