// @vitest-environment jsdom
// works-list delete removes works on the server's 200 (spec §7), not before it answers.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../tests/support/server.js';
import { startApiServer, useToken } from '../../../tests/support/testServer.js';
import type { Work } from '../../shared/domain/work.js';
import { useDialogs } from '../../stores/dialogs.js';
import { useWorks } from '../../stores/works.js';
import { deleteNow } from './actions.js';

const work = (cid: string, patch: Partial<Work> = {}): Work => ({
  cid,
  filename: `${cid}.jpg`,
  filesize: 1,
  w: 10,
  h: 10,
  status: 'ready',
  selected: false,
  workType: 'denoise',
  updatedAt: Date.now(),
  ...patch,
});

let srv: TestServer;
let token: string;
beforeAll(async () => {
  srv = await startApiServer();
  token = (await srv.ctx.services.tokens.createGuest()).token;
  useToken(token);
});
afterAll(() => srv?.stop());
beforeEach(() => useWorks.setState({ works: [], progress: {} }));

describe('deleteNow', () => {
  it('a work the server holds stays until the server answers 200, then leaves; one it does not hold leaves at once', async () => {
    const principal = await srv.ctx.services.tokens.resolve(token);
    const bytes = fs.readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/chelsea.png'));
    const { uid } = await srv.ctx.services.uploads.uploadWhole(principal, {
      file: bytes,
      filename: 'chelsea.png',
      job: 'denoise',
    });
    useWorks.setState({ works: [work('kept', { uid }), work('failed', { status: 'uploadFailed' })] });
    const pending = deleteNow(useWorks.getState().works);
    // before the answer: the local-only work is gone, the uploaded one is still listed
    expect(useWorks.getState().works.map((w) => w.cid)).toEqual(['kept']);
    await pending;
    expect(useWorks.getState().works).toEqual([]);
    expect(
      await srv.ctx.db.selectFrom('uploads').select('deleted_at').where('uid', '=', uid).executeTakeFirstOrThrow(),
    ).toMatchObject({ deleted_at: expect.any(Number) });
  });

  it('on 10001 the works stay and the refusal reason shows, translated (not "parameter error")', async () => {
    useWorks.setState({ works: [work('ghost', { uid: 'no-such-upload' })] });
    await deleteNow(useWorks.getState().works);
    expect(useWorks.getState().works.map((w) => w.cid)).toEqual(['ghost']);
    // The server answers reason uploadNotFound; the client loaded its texts before it showed the toast.
    expect(useDialogs.getState().toast?.text).toBe('This image is no longer on the server. Please upload it again.');
  });
});
