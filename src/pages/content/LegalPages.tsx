/**
 * Privacy policy and terms: what the server actually stores and for how long. Every number is
 * imported from where the code keeps it (src/shared/domain, and serverFacts.json generated from the server's
 * modules by scripts/api-docs.ts); the caller's configured retention comes from the server itself.
 */
import { useTranslation } from 'react-i18next';
import { L } from '../../app/lang.js';
import {
  GUEST_CREDITS_COOKIE_DAYS,
  GUEST_TOKEN_COOKIE_DAYS,
  LOCAL_STORAGE_EXPIRY_MS,
  UPLOADED_CACHE_EXPIRY_MS,
} from '../../shared/domain/constants.js';
import { PLAN_LIMITS, RETENTION_DAYS_DEFAULT, UPLOAD_QUOTAS } from '../../shared/domain/plans.js';
import { useUser } from '../../stores/user.js';
import { Article, type Section } from './Article.js';
import serverFacts from './serverFacts.json';
import { FactTable } from './FactTable.js';

const HOUR_MS = 3_600_000;
const MB = 1024 * 1024;
const size = (bytes: number) => (bytes >= 1024 * MB ? `${bytes / (1024 * MB)} GB` : `${bytes / MB} MB`);

/** The privacy page's tables: what is kept, why, and for how long. */
function Rows({ rows, testId }: { rows: [string, string, string][]; testId?: string }) {
  return <FactTable head={['What', 'Why', 'How long']} rows={rows} testId={testId} />;
}

export function PrivacyPage() {
  const { t } = useTranslation('site');
  const retentionDays = useUser((s) => s.retentionDays);
  const retention = `${RETENTION_DAYS_DEFAULT.guest} days for guests, ${RETENTION_DAYS_DEFAULT.free} for free accounts and expired plans, ${RETENTION_DAYS_DEFAULT.subscriber} for Basic and Pro (defaults; the operator can change them)`;
  const sections: Section[] = [
    {
      id: 'images',
      title: 'Your images',
      body: (
        <>
          <Rows
            testId="privacy-images"
            rows={[
              [
                'Uploaded images (the original as sent, the working copy, a thumbnail)',
                'to process them and show them in your list',
                retention,
              ],
              ['Results of processing', 'so you can preview and download them', 'as long as the uploads (above)'],
              [
                'Parts of an upload that never finished',
                'to resume a sliced upload',
                `${UPLOADED_CACHE_EXPIRY_MS / HOUR_MS} hours`,
              ],
              ['A prepared zip of several results', 'for a bulk download', `${serverFacts.bulkDownloadHours} hour`],
            ]}
          />
          <p>
            When the time is up, a sweep deletes the image files. A short record of the work (name, size, status, when
            it expired) stays, so your list can say that a result has expired instead of showing a broken link. Deleting
            an upload in the workspace deletes it on the server at once. Results processed on your device never reach
            the server.
          </p>
          <p>
            How much you may keep at once also depends on the plan: {size(UPLOAD_QUOTAS.guest.storedBytes)} of uploads
            for guests, {size(UPLOAD_QUOTAS.register.storedBytes)} for free accounts,{' '}
            {size(UPLOAD_QUOTAS.basic.storedBytes)} on Basic and {size(UPLOAD_QUOTAS.pro.storedBytes)} on Pro.
          </p>
        </>
      ),
    },
    {
      id: 'account',
      title: 'Your account and tokens',
      body: (
        <>
          <Rows
            testId="privacy-account"
            rows={[
              [
                'Email address and a password hash (never the password)',
                'to sign you in',
                'until the account is deleted',
              ],
              [
                'Guest token (a random value; the server keeps only its SHA-256 hash)',
                'to keep your credits and uploads together without an account',
                `${serverFacts.guestTokenDays} days after its last use`,
              ],
              [
                'User token and sign-in session (hashed the same way)',
                'to keep you signed in',
                `${serverFacts.userTokenDays} days after the last use (session: ${serverFacts.sessionDays} days); at most ${serverFacts.tokensPerSession} tokens per session`,
              ],
              [
                'Failed sign-ins per email address',
                `to lock an address for ${serverFacts.loginLockMinutes} minutes after repeated failures within ${serverFacts.loginWindowMinutes} minutes (longer when it repeats, at most ${serverFacts.loginLockMaxHours} hours)`,
                'until the next successful sign-in or the lock ends',
              ],
              [
                'Credits ledger (every charge and refund)',
                'so credits are counted once and failed works are refunded',
                'with the account',
              ],
              [
                'Payments: plan, amount and the payment provider\u2019s event ids',
                'to grant the plan you paid for exactly once',
                'with the account',
              ],
              [
                'Messages sent through the contact form (name, email, text, language)',
                'to answer you',
                'until we delete them by hand',
              ],
            ]}
          />
          <p>
            Signing out ends the session and its tokens. Changing the password ends every session and token of the
            account.
          </p>
        </>
      ),
    },
    {
      id: 'browser',
      title: 'In your browser',
      body: (
        <Rows
          testId="privacy-browser"
          rows={[
            [
              'Cookie with your guest token',
              'to find your credits and uploads again',
              `${GUEST_TOKEN_COOKIE_DAYS} days`,
            ],
            [
              'Cookie with a guest\u2019s remaining credits and your plan type',
              'to show them before the server answers',
              `${GUEST_CREDITS_COOKIE_DAYS} days`,
            ],
            [
              'Session cookie (pixmill_session)',
              'to keep you signed in',
              `${serverFacts.sessionDays} days after the last use`,
            ],
            [
              'Your works list and uploads waiting for the network (IndexedDB)',
              'so a reload or going offline loses nothing',
              `cleared when unchanged for ${LOCAL_STORAGE_EXPIRY_MS / HOUR_MS} hours`,
            ],
            [
              'The app itself, samples, translations and on-device models (service worker caches)',
              'to start fast and work offline',
              'until a new version replaces them',
            ],
          ]}
        />
      ),
    },
    {
      id: 'logs',
      title: 'Logs and what we never do',
      body: (
        <p>
          Request logs keep the method, the path and harmless query parameters; tokens, passwords, cookies and request
          bodies are removed before anything is written. We do not sell personal data, we do not use your pictures to
          train models, and no picture is sent to a third-party service for processing.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Questions and deletion',
      body: (
        <p>
          To have your account and everything stored with it deleted, or for any question about your data, write to us
          through the <L to="/contact/">contact page</L>.
        </p>
      ),
    },
  ];
  return (
    <Article
      title={t('content.privacy_policy.title')}
      intro={t('content.privacy_policy.body')}
      sections={sections}
      testId="privacy-page"
    >
      {retentionDays !== undefined && (
        <p className="notice" data-testid="privacy-your-retention">
          {t('content.privacy_policy.yourPlan', { count: retentionDays })}
        </p>
      )}
    </Article>
  );
}

export function TermsPage() {
  const { t } = useTranslation('site');
  const free = PLAN_LIMITS.guest;
  const sections: Section[] = [
    {
      id: 'use',
      title: 'Using Pixmill',
      body: (
        <ul>
          <li>Process only images you have the right to use, and nothing unlawful.</li>
          <li>
            Do not try to overload, probe or get around the limits of the service; automated use goes through the
            documented <L to="/api-docs/">API</L> within its rate limits.
          </li>
          <li>
            You keep every right to your images and results. We use them only to process them for you and to let you
            download them.
          </li>
        </ul>
      ),
    },
    {
      id: 'credits',
      title: 'Credits and plans',
      body: (
        <ul>
          <li>
            Each processed image uses credits when it starts; a work that fails gives its credit back automatically,
            once.
          </li>
          <li>
            Without a subscription you work with the free limits (one image at a time, up to {free.maxMegapixels}{' '}
            megapixels, {free.credits} credits). Larger uploads are reduced to fit before they are sent, and the app
            says so.
          </li>
          <li>
            Results are kept for the time your plan allows (see the <L to="/privacy-policy/">privacy page</L>); download
            what you want to keep.
          </li>
          <li>Results processed on your device are free and are not counted against your credits.</li>
          <li>
            Moving from one paid plan to the other while yours is running (Basic to Pro, or back) keeps the plan credits
            you have not used: they are added to the new plan&rsquo;s, which starts on the day you buy it. Buying the
            plan you already have again extends it from its current end date, and its credits start again from the
            plan&rsquo;s allotment.
          </li>
        </ul>
      ),
    },
    {
      id: 'results',
      title: 'Results',
      body: (
        <p>
          Image processing makes choices: colorized photos get plausible rather than historically exact colours, and
          enlargements draw detail the original did not contain. Check a result before you rely on it.
        </p>
      ),
    },
  ];
  return (
    <Article
      title={t('content.term_of_use.title')}
      intro={t('content.term_of_use.body').split('\n\n')[0]}
      sections={sections}
      testId="terms-page"
    />
  );
}
