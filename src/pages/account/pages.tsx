/**
 * /my-account/workflow/ (saved workflows), and the sections the UI's /my-account/ page
 * (src/pages/AccountPages.tsx) adds: plan details, the occupation survey and the processing history.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleError } from '../../app/handleError.js';
import { L } from '../../app/lang.js';
import { useUser } from '../../stores/user.js';
import { usePageTitle } from '../usePageTitle.js';
import * as endpoints from '../../api/endpoints.js';
import type { AccountView } from '../../shared/domain/account.js';
import { ApiTokenSection } from './ApiTokenSection.js';
import { HistoryList } from './HistoryList.js';
import { useAccountT } from './i18n.js';
import { PlanCard } from './PlanCard.js';
import { SurveyForm } from './SurveyForm.js';
import { WorkflowsManager } from './WorkflowsManager.js';
import './account.css';

/** Shown instead of an account page to a visitor who is not logged in. */
export function NeedLogin({ title }: { title: string }) {
  const t = useAccountT();
  return (
    <div className="container page center" data-testid="need-login">
      <h1>{title}</h1>
      <p>{t('needLogin')}</p>
      <L to="/login/" className="btn btn-primary">
        {t('login')}
      </L>
    </div>
  );
}

export function Loading({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <h1>{title}</h1>
      <p className="muted">{t('loading')}</p>
    </div>
  );
}

export function MyWorkflowsPage() {
  const t = useAccountT();
  const { logged, ready } = useUser();
  usePageTitle(t('workflows.title'));
  if (!ready) return <Loading title={t('workflows.title')} />;
  if (!logged) return <NeedLogin title={t('workflows.title')} />;
  return (
    <div className="container page acct-page">
      <p>
        <L to="/my-account/">← {t('title')}</L>
      </p>
      <WorkflowsManager asPage />
    </div>
  );
}

/** The occupation survey with the account's current answers (loaded from /api/account/me). */
function SurveySection() {
  const [account, setAccount] = useState<AccountView | null>(null);
  useEffect(() => {
    endpoints.accountMe().then(setAccount).catch(handleError);
  }, []);
  if (!account) return null;
  return <SurveyForm initial={account.survey ?? []} initialOther={account.occupation_other} />;
}

/** What /my-account/ adds below its own facts and forms: plan details, the survey, the developer API, the history. */
export function AccountSections() {
  return (
    <div className="acct-page acct-sections">
      <PlanCard compact />
      <SurveySection />
      <ApiTokenSection />
      <HistoryList />
    </div>
  );
}
