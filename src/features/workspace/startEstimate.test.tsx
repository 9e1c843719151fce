// @vitest-environment jsdom
// Honest time before a start: the note reads this server's engine rates (a real test server) and says
// about how long the selected images take with the panel's feature.
import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import type { TestServer } from '../../../tests/support/server.js';
import { startApiServer } from '../../../tests/support/testServer.js';
import { timeLeftText, workSeconds } from '../../shared/domain/estimate.js';
import type { Work } from '../../shared/domain/work.js';
import { i18n } from '../../i18n/index.js';
import { usePanel } from '../../stores/panel.js';
import { useWorks } from '../../stores/works.js';
import { StartEstimate } from './startEstimate.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
}, 60_000);
afterAll(async () => {
  cleanup();
  await srv?.stop();
});

const photo = (cid: string, w: number, h: number): Work => ({
  cid,
  filename: `${cid}.jpg`,
  filesize: 1,
  w,
  h,
  status: 'ready',
  selected: true,
  workType: 'enlarge',
  updatedAt: 0,
});

describe('the estimate before a start', () => {
  it('adds up each selected photo’s time with the panel’s feature at this server’s rates', async () => {
    await srv.ctx.db
      .insertInto('engine_rates')
      .values({ rate_key: 'enlarge:4', s_per_mp: 40, samples: 3, updated_at: Date.now() })
      .execute();
    useWorks.setState({
      works: [photo('a', 2000, 1500), photo('b', 1000, 1000), { ...photo('c', 4000, 3000), selected: false }],
    });
    usePanel.getState().setFeatureModule('enlarge');
    usePanel.getState().setFeatureParam('scale', 4);
    const steps = [usePanel.getState().feature.config];
    const total =
      workSeconds(steps, 2000, 1500, { 'enlarge:4': 40 }) + workSeconds(steps, 1000, 1000, { 'enlarge:4': 40 });
    expect(timeLeftText(total)).toEqual({ unit: 'minutes', count: Math.ceil(total / 60) });
    render(
      <I18nextProvider i18n={i18n}>
        <StartEstimate />
      </I18nextProvider>,
    );
    expect((await screen.findByTestId('start-estimate')).textContent).toBe(
      `About ${Math.ceil(total / 60)} minutes on this server for the selected images`,
    );
  });
});
