/**
 * No route that writes is both anonymous and unlimited, and the events table has
 * a retention. Reports, the site-ajax credit notifications and cart/abandon are limited per client
 * address; events past EVENTS_RETENTION_DAYS go with the retention sweep and, between sweeps, every
 * EVENTS_PRUNE_EVERY inserts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_PRUNE_EVERY } from '../../server/services/events.js';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

const DAY_MS = 86_400_000;
const anonymousEvents = async () =>
  (await srv.ctx.db.selectFrom('events').select('id').where('account_id', 'is', null).execute()).length;

/** `n` anonymous form posts in a row; the HTTP statuses. */
async function burst(n: number, p: string, form: () => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await new Caller(srv).form(p, form(), false)).status);
  return statuses;
}

describe('anonymous writes are limited per client address', () => {
  it('/api/report: 60 a minute, then 429 and nothing more is stored', async () => {
    const before = await anonymousEvents();
    const statuses = await burst(80, '/api/report', () => ({
      event: 'preview',
      data: JSON.stringify({ pad: 'x'.repeat(3000) }),
    }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    expect((await anonymousEvents()) - before).toBe(60);
  });

  it('/site-ajax credit notifications: 120 a minute', async () => {
    const nonce = (await new Caller(srv).get('/site-ajax/nonce', {}, false)).body.data.nonce as string;
    const statuses = await burst(125, '/site-ajax', () => ({ action: 'credit_upload', nonce, pid: '1' }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.slice(120).every((s) => s === 429)).toBe(true);
  });

  it('/api/cart/abandon: 10 a minute', async () => {
    const statuses = await burst(15, '/api/cart/abandon', () => ({ product_id: '606838' }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
  });

  it('address look-ups are limited too (30 a minute)', async () => {
    const statuses = await burst(35, '/api/v2/common/email_status', () => ({ email: 'someone@example.com' }));
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
  });
});

describe('events retention', () => {
  const insertAt = (created_at: number) =>
    srv.ctx.db
      .insertInto('events')
      .values({ account_id: null, kind: 'preview', payload_json: '{}', created_at })
      .returning('id')
      .executeTakeFirstOrThrow();
  const exists = async (id: number) =>
    !!(await srv.ctx.db.selectFrom('events').select('id').where('id', '=', id).executeTakeFirst());

  it('the retention sweep deletes events older than EVENTS_RETENTION_DAYS and keeps younger ones', async () => {
    const days = srv.ctx.config.eventsRetentionDays;
    const old = await insertAt(Date.now() - (days + 1) * DAY_MS);
    const young = await insertAt(Date.now() - (days - 1) * DAY_MS);
    const report = await srv.ctx.services.retention.sweep();
    expect(report.events).toBeGreaterThanOrEqual(1);
    expect(await exists(old.id)).toBe(false);
    expect(await exists(young.id)).toBe(true);
  });

  it(`between sweeps, every ${EVENTS_PRUNE_EVERY} inserts of a process prune as well`, async () => {
    const old = await insertAt(Date.now() - (srv.ctx.config.eventsRetentionDays + 5) * DAY_MS);
    for (let i = 0; i < EVENTS_PRUNE_EVERY; i++) await srv.ctx.services.events.record('preview', null, { i });
    expect(await exists(old.id)).toBe(false);
  });
});
