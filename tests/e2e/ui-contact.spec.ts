// The contact form stores the message for the operator (npm run admin -- messages); the address comes from configuration.
import { expect, test } from '@playwright/test';
import { admin, AuthPage, uniqueEmail } from './pages/account.js';

test('contact form: the message is stored and the operator reads it; the address is the configured one', async ({
  page,
}) => {
  // An account only to find this server's database for the admin command.
  const email = uniqueEmail('contact');
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await page.goto('/de/contact/');
  await expect(page.getByTestId('contact-email')).toHaveText(process.env.CONTACT_EMAIL ?? 'support@pixmill.example');
  const text = `Hallo, eine Frage zur API ${Date.now()}`;
  await page.getByTestId('contact-name').fill('Erika Muster');
  await page.getByTestId('contact-from').fill('erika@example.com');
  await page.getByTestId('contact-message').fill(text);
  await page.getByTestId('contact-send').click();
  await expect(page.getByTestId('contact-sent')).toBeVisible();
  const out = (await admin(email, 'messages', '5')) as {
    messages: { name: string; email: string; message: string; locale: string }[];
  };
  expect(out.messages.find((m) => m.message === text)).toMatchObject({
    name: 'Erika Muster',
    email: 'erika@example.com',
    locale: 'de',
  });
});
