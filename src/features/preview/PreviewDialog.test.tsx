// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { Work } from '../../shared/domain/work.js';
import { i18n } from '../../i18n/index.js';
import { useWorks } from '../../stores/works.js';
import { PreviewDialog } from './PreviewDialog.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const work = (w: number, h: number, scale: number, operation = 'enlarge'): Work => ({
  cid: 'c1',
  uid: 'u1',
  transId: 't1',
  filename: 'big.png',
  filesize: 1,
  w,
  h,
  status: 'finished',
  selected: false,
  operation,
  workType: operation,
  params: { job: operation, config: { module: 'enlarge', module_params: { scale } } },
  updatedAt: 0,
});

function show(w: Work) {
  useWorks.setState({ works: [w] });
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <PreviewDialog cid={w.cid} onClose={() => undefined} />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('preview dialog', () => {
  it("shows 'Ah... Preview failed.' when a scaled side exceeds 18000 px and never loads the after image", () => {
    vi.useFakeTimers();
    show(work(2400, 1600, 8));
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('preview-failed').textContent).toContain('Ah... Preview failed.');
    expect(screen.queryByTestId('img-after')).toBeNull();
    expect(screen.getByTestId('preview-output-size').textContent).toBe('19200×12800');
  });

  it('shows the sizes and the operation of a normal result', () => {
    show(work(2000, 1000, 8));
    expect(screen.queryByTestId('preview-failed')).toBeNull();
    expect(screen.getByTestId('preview-output-size').textContent).toBe('16000×8000');
    expect(screen.getByText('Enlarge')).toBeTruthy();
  });
});
