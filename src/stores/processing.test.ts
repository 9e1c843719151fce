// @vitest-environment jsdom
// The processing runner: the start rules, and what the server's answers to a start do (spec §4, §8).
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../../tests/support/server.js';
import { startApiServer, useToken } from '../../tests/support/testServer.js';
import type { Work } from '../shared/domain/work.js';
import { useDialogs } from './dialogs.js';
import { reconcileStored, startProcessing } from './processing.js';
import { clearAll, loadWorks, putWorks } from '../db/index.js';
import { useUser } from './user.js';
import { useWorks } from './works.js';
import { idForKey } from '../../server/services/idempotency.js';

const work = (cid: string, patch: Partial<Work> = {}): Work => ({
  cid,
  filename: `${cid}.jpg`,
  filesize: 1,
  w: 640,
  h: 427,
  status: 'ready',
  selected: true,
  workType: 'denoise',
  updatedAt: Date.now(),
  ...patch,
});
const DENOISE = {
  job: 'denoise',
  config: {
    module: 'denoise',
    module_params: { remove_noise: 75, sharpen: 75, remove_original_detail: 0, model_name: 'DenoiseStable' },
  },
} as const;

let srv: TestServer;
let token: string;
const ROCKET = fs.readFileSync(path.resolve(import.meta.dirname, '../../tests/fixtures/rocket.jpg'));
/** The test guest with its credits back, and a way to store rocket.jpg on the server as its upload (the uid). */
async function guestWithCredits() {
  const principal = await srv.ctx.services.tokens.resolve(token);
  await srv.ctx.db.updateTable('accounts').set({ used_num: 0 }).where('id', '=', principal.accountId).execute();
  const upload = async () =>
    (await srv.ctx.services.uploads.uploadWhole(principal, { file: ROCKET, filename: 'rocket.jpg', job: 'denoise' }))
      .uid;
  return { principal, upload };
}
beforeAll(async () => {
  srv = await startApiServer();
  // No job runs here: the tests write each job's outcome themselves (a slot process cannot start from
  // this jsdom environment anyway), so nothing may touch a job after the test has written it.
  await srv.ctx.services.jobs.stopRunner();
  token = (await srv.ctx.services.tokens.createGuest()).token;
  useToken(token);
});
afterAll(() => srv?.stop());
beforeEach(() => useWorks.setState({ works: [], progress: {} }));

describe('startProcessing: what may start', () => {
  it.each([
    ['nothing selected', [work('a', { selected: false })], DENOISE, 'noSelection'],
    ['a workflow on a sample', [work('s', { sample: true })], { job: 'se-night' }, 'workflowOnSample'],
    ['a sample of another feature', [work('s', { sample: true, workType: 'sharpen' })], DENOISE, 'sampleFeature'],
  ] as const)('%s → %s', (_, works, cfg, want) => {
    useWorks.setState({ works: works.map((w) => ({ ...w })) });
    expect(startProcessing(cfg as never)).toBe(want);
  });
});

describe('against the server', () => {
  it('spec §8: 10012 on start — credits 0, level expired, work removed, the rest back to ready, the dialog opens', async () => {
    const principal = await srv.ctx.services.tokens.resolve(token);
    const { uid } = await srv.ctx.services.uploads.uploadWhole(principal, {
      file: ROCKET,
      filename: 'rocket.jpg',
      job: 'denoise',
    });
    // The guest's three credits are spent elsewhere.
    await srv.ctx.db.updateTable('accounts').set({ used_num: 3 }).where('id', '=', principal.accountId).execute();
    useWorks.setState({ works: [work('w2', { uid }), work('w1', { uid })] });
    expect(startProcessing(DENOISE)).toBe('started');
    await vi.waitFor(() => expect(useWorks.getState().works.map((w) => w.cid)).toEqual(['w2']), { timeout: 30_000 });
    expect(useWorks.getState().works[0].status).toBe('ready');
    expect(useUser.getState()).toMatchObject({ credits: 0, level: 'expired' });
    expect(useDialogs.getState().stack.map((e) => e.dialog.kind)).toContain('insufficientCredits');
  });

  it('any other refusal on start marks the work processFailed', async () => {
    useWorks.setState({ works: [work('bad', { uid: 'no-such-upload' })] });
    expect(startProcessing(DENOISE)).toBe('started');
    await vi.waitFor(() => expect(useWorks.getState().works[0].status).toBe('processFailed'), { timeout: 30_000 });
  });
});

describe('a start is stored on this device before the server takes it', () => {
  it('when the server receives the start, the card is already stored with its upload (a tab closed right after Start keeps it)', async () => {
    const { upload } = await guestWithCredits();
    const uid = await upload();
    await clearAll();
    // What this device holds at the moment the server is asked to start (the real call goes on).
    const jobs = srv.ctx.services.jobs;
    const transform = jobs.transform.bind(jobs);
    let storedThen: Work[] | undefined;
    const spy = vi.spyOn(jobs, 'transform').mockImplementation(async (...args) => {
      storedThen = await loadWorks();
      return transform(...args);
    });
    try {
      useWorks.setState({ works: [work('kept', { uid })], loaded: true });
      expect(startProcessing(DENOISE)).toBe('started');
      await vi.waitFor(() => expect(useWorks.getState().works[0].transId).toBeTruthy(), { timeout: 30_000 });
    } finally {
      spy.mockRestore();
      useWorks.setState({ loaded: false });
      // No runner here: the work is ended as a runner would end it, so the guest may start the next.
      await srv.ctx.db
        .updateTable('jobs')
        .set({ status: 'failed', error: 'timeout', finished_at: Date.now() })
        .where('status', '=', 'queued')
        .execute();
    }
    expect(storedThen?.map((w) => [w.cid, w.uid])).toEqual([['kept', uid]]);
  });
});

describe('stored works with a trans_id ask the server on load', () => {
  it('finished while away -> finished with no new charge; running -> keeps polling; unknown -> ready', async () => {
    const { principal, upload } = await guestWithCredits();
    const uid = await upload();
    const done = (await srv.ctx.services.jobs.transform(principal, { uid, jconfig: JSON.stringify(DENOISE) })).trans_id;
    // The runner is stopped (beforeAll): the jobs' outcome is written as the runner would write it.
    const settle = async (transId: string, status: 'finished' | 'running') => {
      await srv.ctx.db
        .updateTable('jobs')
        .set(
          status === 'finished'
            ? {
                status,
                progress: 100,
                result_key: `results/${transId}`,
                result_format: 'jpeg',
                result_w: 640,
                result_h: 427,
                finished_at: Date.now(),
                error: null,
              }
            : { status, progress: 40, error: null, finished_at: null },
        )
        .where('trans_id', '=', transId)
        .execute();
    };
    await settle(done, 'finished');
    const running = (await srv.ctx.services.jobs.transform(principal, { uid, jconfig: JSON.stringify(DENOISE) }))
      .trans_id;
    await settle(running, 'running');
    const used = async () =>
      (
        await srv.ctx.db
          .selectFrom('accounts')
          .select('used_num')
          .where('id', '=', principal.accountId)
          .executeTakeFirstOrThrow()
      ).used_num;
    const usedBefore = await used();

    // What the page stored when it went away mid-poll, and one job the server never knew.
    await clearAll();
    const stored = (cid: string, transId: string, status: Work['status']) =>
      work(cid, { uid, transId, status, selected: false, operation: 'denoise', params: DENOISE as Work['params'] });
    await putWorks([
      stored('away', done, 'processing'),
      stored('still', running, 'waiting'),
      stored('gone', 'no-such-job', 'ready'),
    ]);
    useWorks.setState({ works: [], loaded: false });
    await useWorks.getState().load();
    // Before the server answers none counts as ready (the spec's reset waits for the answer).
    expect(useWorks.getState().works.map((w) => w.status)).toEqual(['processing', 'processing', 'processing']);
    void reconcileStored();
    const get = (cid: string) => useWorks.getState().works.find((w) => w.cid === cid);
    await vi.waitFor(
      () =>
        expect(get('away')).toMatchObject({
          status: 'finished',
          transId: done,
          processed: true,
          zoomW: 640,
          zoomH: 427,
        }),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(get('gone')).toMatchObject({ status: 'ready', transId: undefined }), {
      timeout: 10_000,
    });
    expect(get('still')).toMatchObject({ status: 'processing', transId: running });
    // The running one is polled on: when the server finishes it, the page shows it.
    await settle(running, 'finished');
    await vi.waitFor(() => expect(get('still')).toMatchObject({ status: 'finished' }), { timeout: 10_000 });
    expect(await used()).toBe(usedBefore);
  });
});

describe('stored works without a trans_id are reconciled with the server record', () => {
  it('a start whose trans_id never reached the page is found by its upload: finished -> Processed; failed -> ready with its reason', async () => {
    const { principal, upload } = await guestWithCredits();
    const [doneUid, failedUid, idleUid] = [await upload(), await upload(), await upload()];
    const done = (await srv.ctx.services.jobs.transform(principal, { uid: doneUid, jconfig: JSON.stringify(DENOISE) }))
      .trans_id;
    await srv.ctx.db
      .updateTable('jobs')
      .set({
        status: 'finished',
        progress: 100,
        result_key: `results/${done}`,
        result_format: 'jpeg',
        result_w: 640,
        result_h: 427,
        finished_at: Date.now(),
      })
      .where('trans_id', '=', done)
      .execute();
    const failed = (
      await srv.ctx.services.jobs.transform(principal, { uid: failedUid, jconfig: JSON.stringify(DENOISE) })
    ).trans_id;
    await srv.ctx.db
      .updateTable('jobs')
      .set({ status: 'failed', error: 'timeout', finished_at: Date.now() })
      .where('trans_id', '=', failed)
      .execute();

    await clearAll();
    // The tab closed a moment after Start: the cards were saved without the works' trans_ids.
    await putWorks([
      work('lost', { uid: doneUid, status: 'processing', selected: false }),
      work('bad', { uid: failedUid, status: 'processing', selected: false }),
      work('idle', { uid: idleUid, selected: false }),
    ]);
    useWorks.setState({ works: [], loaded: false });
    await useWorks.getState().load();
    await reconcileStored();
    const get = (cid: string) => useWorks.getState().works.find((w) => w.cid === cid);
    await vi.waitFor(
      () => expect(get('lost')).toMatchObject({ status: 'finished', transId: done, zoomW: 640, zoomH: 427 }),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(get('bad')).toMatchObject({ status: 'ready', processError: 'processTimeout' }), {
      timeout: 10_000,
    });
    expect(get('idle')).toMatchObject({ status: 'ready' });
    expect([get('idle')?.transId, get('idle')?.processError]).toEqual([undefined, undefined]);
  });
});

describe('started means started (issue 47): works started before a reload go on after it, each sent and charged once', () => {
  it('a waiting work is sent after the reload; one the server took is found in its record; one it never got is sent', async () => {
    const { principal, upload } = await guestWithCredits();
    const [queuedUid, takenUid, lostUid] = [await upload(), await upload(), await upload()];
    // No runner here: each queued work is ended as the runner would end it (the guest runs one at a time).
    const finishQueued = async () => {
      const queued = await srv.ctx.db.selectFrom('jobs').select('trans_id').where('status', '=', 'queued').execute();
      for (const { trans_id } of queued)
        await srv.ctx.db
          .updateTable('jobs')
          .set({
            status: 'finished',
            progress: 100,
            result_key: `results/${trans_id}`,
            result_format: 'jpeg',
            result_w: 640,
            result_h: 427,
            finished_at: Date.now(),
            error: null,
          })
          .where('trans_id', '=', trans_id)
          .execute();
    };
    // The start of 'taken' reached the server; the page went away before its answer.
    const taken = (
      await srv.ctx.services.jobs.transform(principal, { uid: takenUid, jconfig: JSON.stringify(DENOISE) })
    ).trans_id;
    await finishQueued();
    const used = async () =>
      (
        await srv.ctx.db
          .selectFrom('accounts')
          .select('used_num')
          .where('id', '=', principal.accountId)
          .executeTakeFirstOrThrow()
      ).used_num;
    const usedBefore = await used();

    await clearAll();
    const started = (cid: string, uid: string, status: Work['status']) =>
      work(cid, { uid, status, selected: false, operation: 'denoise', params: DENOISE as Work['params'] });
    await putWorks([
      started('queued', queuedUid, 'waiting'),
      started('taken', takenUid, 'processing'),
      started('lost', lostUid, 'processing'),
    ]);
    useWorks.setState({ works: [], progress: {}, loaded: false });
    await useWorks.getState().load();
    const timer = setInterval(() => void finishQueued(), 50);
    try {
      void reconcileStored();
      await vi.waitFor(
        () => expect(useWorks.getState().works.map((w) => w.status)).toEqual(['finished', 'finished', 'finished']),
        { timeout: 30_000 },
      );
    } finally {
      clearInterval(timer);
      useWorks.setState({ loaded: false });
    }
    const jobsOf = async (uid: string) =>
      (await srv.ctx.db.selectFrom('jobs').select('trans_id').where('uid', '=', uid).execute()).map((j) => j.trans_id);
    const get = (cid: string) => useWorks.getState().works.find((w) => w.cid === cid);
    // One work on the server per start, each card holding it; two new charges (the taken one was charged before).
    expect(await jobsOf(takenUid)).toEqual([taken]);
    expect(get('taken')?.transId).toBe(taken);
    for (const [cid, uid] of [
      ['queued', queuedUid],
      ['lost', lostUid],
    ] as const) {
      const jobs = await jobsOf(uid);
      expect(jobs).toHaveLength(1);
      expect(get(cid)?.transId).toBe(jobs[0]);
    }
    expect(await used()).toBe(usedBefore + 2);
  });
  it('a start still on the wire when the reloaded page reads the record: the page resends its stored key, one work, one charge', async () => {
    const { principal, upload } = await guestWithCredits();
    const uid = await upload();
    const used = async () =>
      (
        await srv.ctx.db
          .selectFrom('accounts')
          .select('used_num')
          .where('id', '=', principal.accountId)
          .executeTakeFirstOrThrow()
      ).used_num;
    const usedBefore = await used();
    // Stored before the first send (startSent, startKey); the server has not got that first request yet.
    await clearAll();
    await putWorks([
      work('wire', {
        uid,
        status: 'processing',
        selected: false,
        operation: 'denoise',
        params: DENOISE as Work['params'],
        startSent: true,
        startKey: 'start-on-the-wire',
      }),
    ]);
    useWorks.setState({ works: [], progress: {}, loaded: false });
    await useWorks.getState().load();
    const keyed = idForKey(principal.accountId, 'start-on-the-wire');
    try {
      void reconcileStored();
      // The resent start arrives with the stored key: its work is the key's.
      await vi.waitFor(
        async () =>
          expect((await srv.ctx.db.selectFrom('jobs').select('trans_id').where('uid', '=', uid).execute()).length).toBe(
            1,
          ),
        { timeout: 30_000 },
      );
      // The first request lands late, with the same key: answered the same work, charged nothing.
      const late = await srv.ctx.services.jobs.transformOnce(
        principal,
        { uid, jconfig: JSON.stringify(DENOISE) },
        'start-on-the-wire',
      );
      expect([late.trans_id, late.charged]).toEqual([keyed, 0]);
      await srv.ctx.db
        .updateTable('jobs')
        .set({ status: 'failed', progress: 0, error: 'processFailed', finished_at: Date.now() })
        .where('trans_id', '=', keyed)
        .execute();
      await vi.waitFor(() => expect(useWorks.getState().works[0]?.transId).toBe(keyed), { timeout: 30_000 });
    } finally {
      useWorks.setState({ loaded: false });
    }
    const jobs = await srv.ctx.db.selectFrom('jobs').select('trans_id').where('uid', '=', uid).execute();
    expect(jobs.map((j) => j.trans_id)).toEqual([keyed]);
    expect(await used()).toBe(usedBefore + 1);
  });
});
