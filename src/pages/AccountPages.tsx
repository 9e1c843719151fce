/** My account: email, links, profile and password forms, then the account side's plan, survey and history sections. */
import { useTranslation } from 'react-i18next';
import { L } from '../app/lang.js';
import { useUser } from '../stores/user.js';
import { usePageTitle } from './usePageTitle.js';
import { PasswordForm, ProfileForm } from './ProfileForms.js';
import { AccountSections, Loading, NeedLogin } from './account/pages.js';

export function AccountPage() {
  const { t } = useTranslation('site');
  const tc = useTranslation().t;
  const { logged, ready, email, level, credits, logout } = useUser();
  usePageTitle(t('account.title'));
  if (!ready) return <Loading title={t('account.title')} />;
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
          <dd data-testid="account-credits">{credits}</dd>
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
      {/* Plan details, the occupation survey and the processing history (the account side's sections). */}
      <AccountSections />
    </div>
  );
}
