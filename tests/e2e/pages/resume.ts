/**
 * Page object for the resume specs (issue 47): reloading or closing the tab at a given stage, the
 * cards of every tab, and the server's record of the account (its uploads, works and spent credits)
 * read from the e2e server's own database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { admin, AuthPage, expectCredits, PASSWORD, serverDataDir, uniqueEmail } from './account.js';
import { Workspace } from './workspace.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-e2e-resume-'));

/** A Pro account, registered in this browser, on the workspace with its 500 credits shown. */
export async function proOnWorkspace(page: Page, tag: string): Promise<{ email: string; ws: Workspace }> {
  const email = uniqueEmail(tag);
  await new AuthPage(page).register(email, PASSWORD);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, 'pro');
  const ws = new Workspace(page);
  await ws.open();
  await expectCredits(page, 500);
  return { email, ws };
}

/** What the server holds for an account: its uploads, its works, and the credits spent (both pools). */
export interface ServerRecord {
  uploads: number;
  /** uploads with distinct names: equal to `uploads` when nothing was uploaded twice */
  distinctUploads: number;
  works: number;
  /** uploads with a work: equal to `works` when no upload was started twice */
  startedUploads: number;
  finished: number;
  spent: number;
}

export function serverRecord(email: string): ServerRecord {
  const db = new SQLite(path.join(serverDataDir(email), 'pixmill.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const acc = db
      .prepare('SELECT id, used_num + compress_used AS spent FROM accounts WHERE email = ?')
      .get(email.toLowerCase()) as { id: number; spent: number };
    const up = db
      .prepare(
        "SELECT count(*) AS n, count(DISTINCT filename) AS d FROM uploads WHERE account_id = ? AND status = 'ready' AND deleted_at IS NULL",
      )
      .get(acc.id) as { n: number; d: number };
    const jobs = db
      .prepare(
        "SELECT count(*) AS n, count(DISTINCT uid) AS d, sum(status = 'finished') AS f FROM jobs WHERE account_id = ?",
      )
      .get(acc.id) as { n: number; d: number; f: number | null };
    return {
      uploads: up.n,
      distinctUploads: up.d,
      works: jobs.n,
      startedUploads: jobs.d,
      finished: jobs.f ?? 0,
      spent: acc.spent,
    };
  } finally {
    db.close();
  }
}

/** The cards of the three tabs, by status (the list shows one tab at a time). */
export async function cardsByStatus(ws: Workspace): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const tab of ['uploaded', 'processing', 'processed'] as const) {
    await ws.tab(tab).click();
    for (const s of await ws.cards().evaluateAll((cards) => cards.map((c) => c.getAttribute('data-status') ?? '')))
      out[s] = (out[s] ?? 0) + 1;
  }
  return out;
}

/** Waits until every card of the three tabs has `status` and there are `n` of them. */
export async function expectAllCards(ws: Workspace, n: number, status: string): Promise<void> {
  await expect
    .poll(() => cardsByStatus(ws), { timeout: 120_000, intervals: [500, 1000, 2000] })
    .toEqual({ [status]: n });
}

/** Closes the tab and opens the workspace in a new one (what a closed tab, or a crash, and a return do). */
export async function closeAndReopen(page: Page, context: BrowserContext): Promise<{ page: Page; ws: Workspace }> {
  const next = await context.newPage();
  await page.close({ runBeforeUnload: false });
  const ws = new Workspace(next);
  await ws.open();
  return { page: next, ws };
}

/**
 * Resolves once a picked file is still being prepared (resized, recompressed): the Processing tab lists
 * those (files picked together are added at once, so all of the batch is listed by then).
 */
export async function whilePreparing(ws: Workspace): Promise<void> {
  await ws.page.waitForFunction(
    () =>
      !!document.querySelector(
        '[data-testid="work-card"][data-status="resizing"], [data-testid="work-card"][data-status="compressing"]',
      ),
    undefined,
    { timeout: 60_000, polling: 20 },
  );
}

/** `n` photos of w×h with their own names (a file's name is part of how a re-pick is recognised). */
export async function photos(n: number, w: number, h: number): Promise<string[]> {
  const { photoOf } = await import('./uploadFiles.js');
  return Promise.all(Array.from({ length: n }, (_, i) => photoOf(w, h, `batch-${i + 1}-${w}x${h}.jpg`)));
}

/** A JPEG of noise that does not compress (about 20 MB at 2900×2400): a sliced upload of four slices. */
export async function hardToCompress(w = 2900, h = 2400, name = 'noise-20mb.jpg'): Promise<string> {
  const raw = Buffer.alloc(w * h * 3);
  let x = 12345;
  for (let i = 0; i < raw.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    raw[i] = x >>> 24;
  }
  const file = path.join(dir, name);
  await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toFile(file);
  return file;
}

/** Checks every ready card of the Uploaded tab (the plan's select limit permitting) and starts them. */
export async function startAllReady(ws: Workspace): Promise<number> {
  await ws.tab('uploaded').click();
  const checks = ws.card('ready').locator('input[type=checkbox]');
  const n = await checks.count();
  for (let i = 0; i < n; i++) if (!(await checks.nth(i).isChecked())) await checks.nth(i).check();
  await ws.startButton().click();
  return n;
}
