/**
 * The account side's pages: /my-account/ (plan and credits, profile, survey, password, history) and
 * /my-account/workflow/ (saved workflows). Pricing and checkout are src/pages/{PricingPage,CheckoutPage}.tsx.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleError } from '../../app/handleError.js';
import { L } from '../../app/lang.js';
import { useUser } from '../../stores/user.js';
import { usePageTitle } from '../usePageTitle.js';
import * as acct from './api.js';
import { HistoryList } from './HistoryList.js';
import { useAccountT } from './i18n.js';
import { PasswordForm } from './PasswordForm.js';
import { PlanCard } from './PlanCard.js';
import { ProfileForm } from './ProfileForm.js';
import { SurveyForm } from './SurveyForm.js';
import { WorkflowsManager } from './WorkflowsManager.js';
import './account.css';

function NeedLogin() {
  const t = useAccountT();
  return (
    <div className="container page center" data-testid="need-login">
      <p>{t('needLogin')}</p>
      <L to="/login/" className="btn btn-primary">
        {t('login')}
      </L>
    </div>
  );
}

function Loading() {
  const { t } = useTranslation();
  return <div className="container page muted">{t('loading')}</div>;
}

export function MyAccountPage() {
  const t = useAccountT();
  const { logged, ready, logout } = useUser();
  const [account, setAccount] = useState<acct.AccountInfo | null>(null);
  usePageTitle(t('title'));
  useEffect(() => {
    if (logged) acct.me().then(setAccount).catch(handleError);
  }, [logged]);
  if (!ready) return <Loading />;
  if (!logged) return <NeedLogin />;
  return (
    <div className="container page acct-page">
      <header className="acct-head">
        <div>
          <h1>{t('title')}</h1>
          <p className="muted" data-testid="account-email">
            {account?.email}
          </p>
        </div>
        <div className="row-actions">
          <L to="/my-account/workflow/" className="btn btn-secondary" data-testid="account-workflows">
            {t('workflows.title')}
          </L>
          <button type="button" className="btn btn-ghost" onClick={() => void logout()} data-testid="logout">
            {t('logout')}
          </button>
        </div>
      </header>
      <PlanCard />
      {account && (
        <div className="acct-grid">
          <ProfileForm account={account} onSaved={(a) => setAccount({ ...account, ...a })} />
          <SurveyForm initial={account.survey ?? []} initialOther={account.occupation_other} />
          <PasswordForm />
        </div>
      )}
      <HistoryList />
    </div>
  );
}

export function MyWorkflowsPage() {
  const t = useAccountT();
  const { logged, ready } = useUser();
  usePageTitle(t('workflows.title'));
  if (!ready) return <Loading />;
  if (!logged) return <NeedLogin />;
  return (
    <div className="container page acct-page">
      <p>
        <L to="/my-account/">← {t('title')}</L>
      </p>
      <WorkflowsManager asPage />
    </div>
  );
}
