// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { EnlargePath } from '../../shared/domain/enlargePath.js';
import type { Work } from '../../shared/domain/work.js';
import { i18n } from '../../i18n/index.js';
import { useWorks } from '../../stores/works.js';
import { PreviewDialog } from '../preview/PreviewDialog.js';
import { WorkCard } from './WorkCard.js';

afterEach(cleanup);

const work = (enlargePath?: EnlargePath): Work => ({
  cid: 'c1',
  uid: 'u1',
  transId: 't1',
  filename: 'big.png',
  filesize: 1,
  w: 4000,
  h: 3000,
  zoomW: 8000,
  zoomH: 6000,
  status: 'finished',
  selected: false,
  operation: 'enlarge',
  workType: 'enlarge',
  params: { job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2 } } },
  updatedAt: 0,
  ...(enlargePath ? { enlargePath } : {}),
});

function card(w: Work) {
  useWorks.setState({ works: [w] });
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <ul>
          <WorkCard work={w} onDelete={() => undefined} />
        </ul>
        <PreviewDialog cid={w.cid} onClose={() => undefined} />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('never a silent downgrade: the card and the preview say how a photo was enlarged', () => {
  it('"Done" alone when the chosen nets ran on every tile (or no path was reported)', () => {
    for (const path of ['net', undefined] as const) {
      card(work(path));
      expect(screen.getByRole('status').textContent).toBe('Done');
      expect(screen.queryByTestId('enlarge-path')).toBeNull();
      expect(screen.queryByTestId('preview-enlarge-path')).toBeNull();
      cleanup();
    }
  });

  it('a fast-net result says so on the card and in the preview, with why', () => {
    card(work('fast_net'));
    expect(screen.getByRole('status').textContent).toBe('Enlarged with the fast net');
    expect(screen.getByTestId('enlarge-path').textContent).toContain('5-minute limit');
    expect(screen.getByTestId('preview-enlarge-path').textContent).toContain('faster AI model');
  });

  it('a resized result says it was resized without AI, and why', () => {
    card(work('resized'));
    expect(screen.getByRole('status').textContent).toBe('Resized without AI');
    expect(screen.getByTestId('enlarge-path').textContent).toMatch(/^Resized without AI because no AI model/);
    expect(screen.getByTestId('preview-enlarge-path').textContent).toContain('5-minute limit');
  });
});

describe('honest time on the card', () => {
  it('a running work shows about how long is left, from the server’s seconds_left', () => {
    const running: Work = { ...work(), status: 'processing' };
    useWorks.setState({ timeLeft: { c1: 42 } });
    card(running);
    expect(screen.getByTestId('time-left').textContent).toBe('About 42 seconds left');
    cleanup();
    useWorks.setState({ timeLeft: { c1: 200 } });
    card(running);
    expect(screen.getByTestId('time-left').textContent).toBe('About 4 minutes left');
    cleanup();
    useWorks.setState({ timeLeft: {} });
    card(running);
    expect(screen.queryByTestId('time-left')).toBeNull();
  });
});
