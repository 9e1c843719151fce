// The queue's order in SQL (nextQueued, queuePosition) on both databases, and BullMQ's priorities, follow
// src/shared/domain/queueOrder.ts: levels, turns and aging (no starvation).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, detectScaleout, type TestDatabase } from '../../tests/support/modes.js';
import { QUEUE_AGING_MS, QUEUE_CLASSES, queueClass } from '../../src/shared/domain/queueOrder.js';
import { openDatabase, type Db } from '../repositories/db.js';
import { insertQueued, nextQueued, queuePosition } from '../repositories/jobRepository.js';
import { bullPriority } from './bullmqQueue.js';

const pg = await detectScaleout();
const T0 = 1_700_000_000_000;
const GUEST = queueClass('guest', 1);
const PRO = queueClass('pro', 1);

const base = { uid: 'u', job: 'compress', is_workflow: 0, steps_json: '[]', zoom_type: null, client_key: null };

async function seed(db: Db): Promise<void> {
  const { id } = await db
    .insertInto('accounts')
    .values({ kind: 'guest', created_at: T0, updated_at: T0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const work = (trans_id: string, queue_class: number, created_at: number) =>
    insertQueued(db, {
      trans_id,
      account_id: id,
      uid: 'u',
      job: 'compress',
      is_workflow: 0,
      steps_json: '[]',
      zoom_type: null,
      created_at,
      queue_class,
      client_key: null,
    });
  // a guest's work, then later a Pro account's first and second and a Basic account's first
  await work('guest', GUEST, T0);
  await work('pro-2nd', queueClass('pro', 2), T0 + 1000);
  await work('basic', queueClass('basic', 1), T0 + 2000);
  await work('pro', PRO, T0 + 3000);
}

function suite(name: string, available: boolean, open: () => Promise<Db>, close: () => Promise<void>) {
  describe.skipIf(!available)(`queue order on ${name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await open();
      await seed(db);
    });
    afterAll(async () => {
      await db?.destroy();
      await close();
    });

    it('hands out by level and turn, then age; places say the same', async () => {
      const now = T0 + 4000;
      const order: string[] = [];
      for (let i = 0; i < 4; i++) order.push((await nextQueued(db, order, now))!);
      expect(order).toEqual(['pro', 'pro-2nd', 'basic', 'guest']);
      for (const [i, t] of order.entries())
        expect(await queuePosition(db, { trans_id: t, created_at: (await find(db, t)).created_at }, now)).toBe(i + 1);
    });

    it('a waiting guest work moves up a class per aging step and goes before later paid works (no starvation)', async () => {
      const { id } = await db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
      const late = (trans_id: string, queue_class: number, created_at: number) =>
        insertQueued(db, { ...base, trans_id, account_id: id, queue_class, created_at });
      // after 32 steps the guest's work (class 48) stands where a Basic account's first work arriving then does
      const lifted = T0 + 32 * QUEUE_AGING_MS;
      await late('basic-late', queueClass('basic', 1), lifted);
      expect(await nextQueued(db, ['pro', 'pro-2nd', 'basic'], lifted)).toBe('guest');
      // after 48 steps it is at the front: before a Pro account's first work arriving then
      const front = T0 + QUEUE_CLASSES * QUEUE_AGING_MS;
      await late('pro-late', PRO, front);
      expect(await nextQueued(db, ['pro', 'pro-2nd', 'basic'], front)).toBe('guest');
      expect(await queuePosition(db, { trans_id: 'pro-late', created_at: front }, front)).toBe(6);
      // (every work waiting then is at the front too, all older than it: it is sixth)
      // one step short, the fresh Pro work still goes first
      expect(await nextQueued(db, ['pro', 'pro-2nd', 'basic'], front - QUEUE_AGING_MS)).toBe('pro-late');
      // a shorter aging step (the QUEUE_AGING_MS setting) lifts it sooner
      expect(await nextQueued(db, ['pro', 'pro-2nd', 'basic', 'basic-late'], lifted, 10)).toBe('guest');
    });
  });
}

const find = (db: Db, t: string) =>
  db.selectFrom('jobs').select('created_at').where('trans_id', '=', t).executeTakeFirstOrThrow();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-fairness-'));
suite(
  'SQLite',
  true,
  () => openDatabase({ dataDir: dir, databaseUrl: undefined }),
  async () => fs.rmSync(dir, { recursive: true, force: true }),
);
let pgDb: TestDatabase | undefined;
suite(
  'PostgreSQL',
  pg.available,
  async () => {
    pgDb = await createTestDatabase(pg.pgUrl);
    return openDatabase({ dataDir: dir, databaseUrl: pgDb.url });
  },
  async () => pgDb?.drop(),
);

describe('BullMQ priorities', () => {
  it('are 1 + the aged class: Pro 1, a guest 49, the guest 1 after waiting all classes', () => {
    expect(bullPriority(PRO, T0, T0)).toBe(1);
    expect(bullPriority(GUEST, T0, T0)).toBe(49);
    expect(bullPriority(GUEST, T0, T0 + 10 * QUEUE_AGING_MS)).toBe(39);
    expect(bullPriority(GUEST, T0, T0 + 100 * QUEUE_AGING_MS)).toBe(1);
    // a clock behind the work's time never lowers it
    expect(bullPriority(GUEST, T0, T0 - 60_000)).toBe(49);
  });
});
