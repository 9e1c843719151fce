/** Page objects and operator helpers for the account e2e tests (register, plans, the admin command). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'passw0rdE2E';
export const uniqueEmail = (tag: string) => `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export class AuthPage {
  constructor(readonly page: Page) {}

  async register(email: string, password = PASSWORD, confirm = password) {
    await this.page.goto('/register/');
    await this.page.getByTestId('reg-email').fill(email);
    await this.page.getByTestId('reg-password').fill(password);
    await this.page.getByTestId('reg-confirm').fill(confirm);
    await this.page.getByTestId('register-submit').click();
  }
}

/** The credits pill of the site header ("Credits: n"). */
export function creditsPill(page: Page): Locator {
  return page.getByTestId('credits');
}

export async function expectCredits(page: Page, n: number) {
  await expect(creditsPill(page)).toHaveText(new RegExp(`(^|\\D)${n}(\\D|$)`), { timeout: 30_000 });
}

/**
 * The e2e server (tests/e2e/harness/e2e-server.ts) keeps its SQLite database in a fresh /tmp/pixmill-e2e-* dir;
 * the one holding this account is the live server's.
 */
export function serverDataDir(email: string): string {
  const dirs = fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith('pixmill-e2e-'));
  for (const d of dirs) {
    const file = path.join(os.tmpdir(), d, 'pixmill.sqlite');
    if (!fs.existsSync(file)) continue;
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      if (db.prepare('SELECT id FROM accounts WHERE email = ?').get(email.toLowerCase()))
        return path.join(os.tmpdir(), d);
    } catch {
      // a database still being created or removed
    } finally {
      db.close();
    }
  }
  throw new Error(`no e2e server database holds ${email}`);
}

/**
 * The operator command (`npm run admin -- <args>`: scripts/admin.ts's runAdmin) against the running e2e
 * server's database, run in this test worker: a separate `node --import tsx scripts/admin.ts` per call
 * loaded the whole server each time (about 4 s of a core, ~17 calls a run); here the modules load once
 * per worker. That the command works as a separate process is tests/integration/accounts-plans.test.ts's.
 */
export async function admin(email: string, ...args: string[]): Promise<Record<string, unknown>> {
  const [{ createContext }, { loadConfig }, { runAdmin }] = await Promise.all([
    import('../../../server/bootstrap.js'),
    import('../../../server/config.js'),
    import('../../../scripts/admin.js'),
  ]);
  const env = { ...process.env, DATA_DIR: serverDataDir(email), DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const ctx = await createContext(loadConfig(env, { runJobs: false, logLevel: 'silent' }));
  try {
    // the JSON the command prints, as the command line gives it
    return JSON.parse(JSON.stringify(await runAdmin(ctx, args))) as Record<string, unknown>;
  } finally {
    await ctx.close();
  }
}

/** The logged-in browser's user token (the workspace keeps it in the user_token cookie). */
export async function userToken(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => x.name === 'user_token');
  if (!c) throw new Error('no user_token cookie');
  return decodeURIComponent(c.value);
}

/** A form POST to the API as the logged-in browser; returns the envelope's data (throws on a non-200 code). */
export async function apiPost<T = any>(page: Page, path: string, form: Record<string, string>): Promise<T> {
  const r = await page.request.post(path, { form: { user_token: await userToken(page), ...form } });
  const body = (await r.json()) as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

export class AccountPage {
  constructor(readonly page: Page) {}

  async open(prefix = '') {
    await this.page.goto(`${prefix}/my-account/`);
    await expect(this.page.getByTestId('plan-expires')).toBeVisible({ timeout: 30_000 });
  }

  field(id: string): Locator {
    return this.page.getByTestId(id);
  }

  error(id: string): Locator {
    return this.page.getByTestId(`${id}-error`);
  }
}

export class WorkflowsPage {
  constructor(readonly page: Page) {}

  async open(prefix = '') {
    await this.page.goto(`${prefix}/my-account/workflow/`);
    await expect(this.page.getByTestId('workflows')).toBeVisible({ timeout: 30_000 });
  }

  items(): Locator {
    return this.page.getByTestId('wf-item');
  }

  item(name: string): Locator {
    return this.items().filter({ has: this.page.getByTestId('wf-name').getByText(name, { exact: true }) });
  }
}
