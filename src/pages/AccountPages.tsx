/** My account (basic facts, logout) and my workflows (list 10 a page, use, delete). */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import * as endpoints from '../api/endpoints.js';
import { WORKFLOW_FIRST_PAGE, WORKFLOW_PAGE_SIZE } from '../domain/constants.js';
import type { Step } from '../domain/modules.js';
import { localizedPath } from '../domain/rules.js';
import { handleError } from '../app/handleError.js';
import { L, useLang } from '../app/lang.js';
import { dialogs } from '../stores/dialogs.js';
import { usePanel } from '../stores/panel.js';
import { useUser } from '../stores/user.js';
import { usePageTitle } from './usePageTitle.js';
import { PasswordForm, ProfileForm } from './ProfileForms.js';

function NeedLogin({ title }: { title: string }) {
  const { t } = useTranslation('site');
  return (
    <div className="container page center">
      <h1>{title}</h1>
      <p>{t('account.needLogin')}</p>
      <L to="/login/" className="btn btn-primary">
        {t('auth.login')}
      </L>
    </div>
  );
}

export function AccountPage() {
  const { t } = useTranslation('site');
  const tc = useTranslation().t;
  const { logged, ready, email, level, credits, logout } = useUser();
  usePageTitle(t('account.title'));
  if (!ready)
    return (
      <div className="container page">
        <h1>{t('account.title')}</h1>
        <p className="muted">{tc('loading')}</p>
      </div>
    );
  if (!logged) return <NeedLogin title={t('account.title')} />;
  return (
    <div className="container page">
      <h1>{t('account.title')}</h1>
      <dl className="facts">
        <div>
          <dt>{t('auth.email')}</dt>
          <dd data-testid="account-email">{email}</dd>
        </div>
        <div>
          <dt>{t('account.plan')}</dt>
          <dd data-testid="account-level">{tc(`levels.${level}`)}</dd>
        </div>
        <div>
          <dt>{t('account.credits')}</dt>
          <dd>{credits}</dd>
        </div>
      </dl>
      <div className="row-actions">
        <L to="/my-account/workflow/" className="btn btn-secondary">
          {t('account.workflows')}
        </L>
        <L to="/pricing/?source=account&medium=upgrade_btn" className="btn btn-primary">
          {t('account.upgrade')}
        </L>
        <button className="btn btn-ghost" onClick={() => void logout()} data-testid="logout">
          {t('account.logout')}
        </button>
      </div>
      <div className="account-forms">
        <ProfileForm />
        <PasswordForm />
      </div>
    </div>
  );
}

export function AccountWorkflowsPage() {
  const { t } = useTranslation('site');
  const tw = useTranslation('workspace').t;
  const lng = useLang();
  const navigate = useNavigate();
  const { logged, ready } = useUser();
  const [page, setPage] = useState(WORKFLOW_FIRST_PAGE);
  const [data, setData] = useState<{ datas: endpoints.WorkflowRecord[]; last_page: number } | null>(null);
  usePageTitle(t('account.workflows'));

  useEffect(() => {
    if (!logged) return;
    endpoints.workflowList(page, WORKFLOW_PAGE_SIZE).then(setData).catch(handleError);
  }, [logged, page]);

  if (!ready || !logged) return <NeedLogin title={t('account.workflows')} />;
  const stepsOf = (w: endpoints.WorkflowRecord): Step[] => w.flows.map((f) => ({ name: f.name, config: typeof f.config === 'string' ? JSON.parse(f.config) : f.config })) as Step[];

  return (
    <div className="container page">
      <h1>{t('account.workflows')}</h1>
      {data && data.datas.length === 0 && <p className="muted">{t('account.noWorkflows')}</p>}
      <ul className="wf-list">
        {data?.datas.map((w) => (
          <li key={w.id} className="wf-item">
            <div>
              <strong>{w.name}</strong>
              <p className="muted small">{stepsOf(w).map((s) => tw(`modules.${s.config.module}` as 'modules.enlarge')).join(' → ')}</p>
            </div>
            <div className="row-actions">
              <button
                className="btn btn-secondary btn-sm"
                onClick={() => {
                  usePanel.getState().useWorkflow(w.id, w.name, stepsOf(w));
                  navigate(localizedPath('/batch-process/', lng));
                }}
              >
                {t('account.use')}
              </button>
              <button
                className="btn btn-ghost btn-sm danger"
                onClick={() =>
                  dialogs.open({
                    kind: 'confirm',
                    title: t('account.deleteWorkflow'),
                    message: w.name,
                    onConfirm: () =>
                      void endpoints
                        .workflowDelete(w.id)
                        .then(() => endpoints.workflowList(page, WORKFLOW_PAGE_SIZE).then(setData))
                        .catch(handleError),
                  })
                }
              >
                {tw('actions.delete')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {data && data.last_page > 1 && (
        <nav className="pager" aria-label={t('account.pages')}>
          <button className="btn btn-ghost btn-sm" disabled={page <= WORKFLOW_FIRST_PAGE} onClick={() => setPage((p) => p - 1)}>
            ‹
          </button>
          <span>
            {page} / {data.last_page}
          </span>
          <button className="btn btn-ghost btn-sm" disabled={page >= data.last_page} onClick={() => setPage((p) => p + 1)}>
            ›
          </button>
        </nav>
      )}
    </div>
  );
}
