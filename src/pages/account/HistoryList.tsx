/** Processing history from GET /api/job/record, 10 a page, newest first; results still kept are downloadable. */
import { useEffect, useState } from 'react';
import { handleError } from '../../app/handleError.js';
import { useLang } from '../../app/lang.js';
import * as endpoints from '../../api/endpoints.js';
import type { HistoryRecord, Paged } from '../../shared/domain/work.js';
import { formatDate } from './format.js';
import { useAccountT } from './i18n.js';
import { jobLabel } from '../../features/workspace/operationLabel.js';
import { Pager } from './Pager.js';
import { useUser } from '../../stores/user.js';

const HISTORY_PAGE_SIZE = 10;

export function HistoryList() {
  const t = useAccountT();
  const lng = useLang();
  const userToken = useUser((s) => s.userToken);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Paged<HistoryRecord> | null>(null);

  useEffect(() => {
    endpoints.history(page, HISTORY_PAGE_SIZE).then(setData).catch(handleError);
  }, [page]);

  return (
    <section className="acct-card" aria-labelledby="history-title" data-testid="history">
      <h2 id="history-title">{t('history.title')}</h2>
      {data && data.datas.length === 0 && <p className="muted">{t('history.empty')}</p>}
      {data && data.datas.length > 0 && (
        <div className="acct-table-wrap">
          <table className="acct-table">
            <thead>
              <tr>
                <th scope="col">{t('history.file')}</th>
                <th scope="col">{t('history.result')}</th>
                <th scope="col">{t('history.feature')}</th>
                <th scope="col">{t('history.size')}</th>
                <th scope="col">{t('history.status')}</th>
                <th scope="col">{t('history.date')}</th>
              </tr>
            </thead>
            <tbody>
              {data.datas.map((r) => (
                <tr key={r.trans_id} data-testid="history-row" data-status={r.status}>
                  <td className="acct-ellipsis" title={r.filename ?? ''}>
                    {r.filename}
                  </td>
                  {/* second, so a phone shows it without scrolling the table */}
                  <td>
                    {r.status === 'finished' && !r.expired && userToken ? (
                      // The single-download call; its answer is an attachment, so the page stays.
                      <a
                        className="btn btn-secondary btn-sm"
                        href={endpoints.downloadUrl(r.trans_id, userToken)}
                        download
                        aria-label={t('history.downloadName', { name: r.filename ?? r.trans_id })}
                        data-testid="history-download"
                      >
                        {t('history.download')}
                      </a>
                    ) : r.status === 'finished' && r.expired ? (
                      <span className="muted">{t('history.expired')}</span>
                    ) : null}
                  </td>
                  <td>{jobLabel(r.job)}</td>
                  <td>
                    {r.w}×{r.h}
                    {r.result_w ? ` → ${r.result_w}×${r.result_h}` : ''}
                  </td>
                  <td>{t(`history.statuses.${r.status}`)}</td>
                  <td>{formatDate(r.created_at, lng)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={page} last={data.last_page} onPage={setPage} testId="history-pager" />}
    </section>
  );
}
