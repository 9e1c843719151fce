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
        <div className="fact-wide">
          <dt>{t('auth.email')}</dt>
          {/* An address wraps after its @ (never inside a word) when the box is narrower than the address. */}
          <dd data-testid="account-email" className="email">
            {emailWithBreak(email)}
          </dd>
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

/** The address with line-break opportunities after its @ and before the dots of its domain: `name@` / `mail` / `.example.com`, never inside a word. */
function emailWithBreak(email: string | null | undefined) {
  const at = email ? email.lastIndexOf('@') : -1;
  if (!email || at < 0) return email;
  const labels = email.slice(at + 1).split('.');
  return (
    <>
      {email.slice(0, at + 1)}
      {labels.map((label, i) => (
        <span key={i}>
          <wbr />
          {i > 0 ? `.${label}` : label}
        </span>
      ))}
    </>
  );
}
