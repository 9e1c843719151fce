/**
 * Credits and plan: level, credits left (max_num − used_num, floored), compress credits, end date,
 * the credit note (a welcome for an untouched free allowance; the low-credit warning at 4 only once some
 * were spent — src/shared/domain/plans.ts creditStanding), expired notice. `compact` leaves out level, credits and the upgrade button
 * for a page that shows those already.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleError } from '../../app/handleError.js';
import { L, useLang } from '../../app/lang.js';
import {
  creditStanding,
  creditsLeft,
  deriveLevel,
  warnsLowCredits,
  isSubscriber,
  PLAN_LIMITS,
} from '../../shared/domain/plans.js';
import * as endpoints from '../../api/endpoints.js';
import { waitForUserToken } from '../../api/client.js';
import type { LicenseView } from '../../shared/domain/account.js';
import { formatDay } from './format.js';
import { useAccountT } from './i18n.js';

export function PlanCard({ refreshKey = 0, compact = false }: { refreshKey?: number; compact?: boolean }) {
  const t = useAccountT();
  const tc = useTranslation().t;
  const lng = useLang();
  const [lic, setLic] = useState<LicenseView | null>(null);

  useEffect(() => {
    waitForUserToken().then(endpoints.license).then(setLic).catch(handleError);
  }, [refreshKey]);

  if (!lic) return <section className="acct-card" aria-busy="true" data-testid="plan-card" />;
  const level = deriveLevel({ logged: true, isExpired: Boolean(lic.is_expired), pid: Number(lic.pid) });
  const left = creditsLeft(lic.max_num, lic.used_num);
  const compressLeft = creditsLeft(lic.compress_max, lic.compress_used);
  const standing = creditStanding(lic.max_num, lic.used_num);
  return (
    <section className="acct-card" aria-labelledby="plan-title" data-testid="plan-card">
      <h2 id="plan-title">{t('plan.title')}</h2>
      <dl className="facts">
        {!compact && (
          <>
            <div>
              <dt>{t('plan.level')}</dt>
              <dd data-testid="plan-level" data-level={level}>
                {tc(`levels.${level}`)}
              </dd>
            </div>
            <div>
              <dt>{t('plan.credits')}</dt>
              <dd data-testid="plan-credits">{left}</dd>
            </div>
          </>
        )}
        <div>
          <dt>{t('plan.compress')}</dt>
          <dd data-testid="plan-compress">{compressLeft}</dd>
        </div>
        <div>
          <dt>{t('plan.expires')}</dt>
          <dd data-testid="plan-expires">
            {lic.plan_expires_at ? formatDay(lic.plan_expires_at, lng) : t('plan.noExpiry')}
          </dd>
        </div>
      </dl>
      {level === 'expired' && (
        <p className="notice" role="status" data-testid="plan-expired">
          {t('plan.expiredNote', { count: PLAN_LIMITS.expired.credits })}
        </p>
      )}
      {level !== 'expired' && warnsLowCredits(standing) && (
        <p className="notice" role="status" data-testid="plan-low">
          {t('plan.low', { count: left })}
        </p>
      )}
      {level !== 'expired' && !isSubscriber(level) && standing === 'fresh' && (
        <p className="note" data-testid="plan-free">
          {t('plan.free', { count: left })}
        </p>
      )}
      {!compact && (
        <div className="row-actions">
          <L
            to={`/pricing/?source=account&medium=${isSubscriber(level) ? 'renew_btn' : 'upgrade_btn'}`}
            className="btn btn-primary"
            data-testid="plan-upgrade"
          >
            {isSubscriber(level) ? t('plan.change') : t('plan.upgrade')}
          </L>
        </div>
      )}
    </section>
  );
}
