/** Previous / next paging with "page n of m" (pages start at 1). */
import { useAccountT } from './i18n.js';

export function Pager({
  page,
  last,
  onPage,
  testId,
}: {
  page: number;
  last: number;
  onPage(p: number): void;
  testId: string;
}) {
  const t = useAccountT();
  if (last <= 1) return null;
  return (
    <nav className="pager" aria-label={t('pager.label')} data-testid={testId}>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        data-testid={`${testId}-prev`}
      >
        ‹ {t('pager.prev')}
      </button>
      <span aria-live="polite" data-testid={`${testId}-status`}>
        {t('pager.status', { page, last })}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={page >= last}
        onClick={() => onPage(page + 1)}
        data-testid={`${testId}-next`}
      >
        {t('pager.next')} ›
      </button>
    </nav>
  );
}
