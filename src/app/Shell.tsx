/** App shell: header with navigation, language links and credits; footer with every site link; dialogs. */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { asksHistory, asksServer } from '../shared/domain/tabs.js';
import { LANGUAGES, type Language } from '../shared/domain/locale.js';
import { localizedPath, splitLanguage } from '../shared/domain/links.js';
import { setLanguage } from '../i18n/index.js';
import { localDatabaseExists } from '../db/lazy.js';
import { useOnline } from '../pwa/online.js';
import { useDialogs } from '../stores/dialogs.js';
import { useUser } from '../stores/user.js';
import { handleError } from './handleError.js';
import { L, LangContext, NL } from './lang.js';
import { FEATURE_PAGES } from '../shared/sitemap.js';

// The dialogs (previews, works, Dexie behind them) and the offline/update status are their own chunks: the shell paints without them.
const DialogHost = lazy(() => import('../features/dialogs/DialogHost.js').then((m) => ({ default: m.DialogHost })));
const PwaStatus = lazy(() => import('../pwa/PwaStatus.js'));

let booted = false;
function useBoot() {
  useEffect(() => {
    if (booted) return;
    booted = true;
    // The stored works load after the first paint, and Dexie only when this browser has stored
    // something (src/db/lazy.ts). The upload manager (and its worker) loads only when there can be an
    // interrupted upload to resume: never on a first visit.
    void import('../stores/works.js')
      .then(async (m) => {
        await m.useWorks.getState().load();
        // Works the server holds a job for ask it before they count as ready; the runner loads only then.
        // So do uploads the server may have a newer work for (a tab closed a moment after starting).
        // Works the user started and the server has not taken yet go on (issue 47: started means started).
        if (m.useWorks.getState().works.some((w) => asksServer(w) || asksHistory(w) || w.status === 'waiting'))
          void import('../stores/processing.js').then((p) => p.reconcileStored());
      })
      .then(() => localDatabaseExists())
      .then((stored) => (stored ? import('../stores/uploads.js').then((m) => m.resumeInterruptedUploads()) : undefined))
      .catch(() => undefined);
    // Offline, the account waits for the network instead of failing: it is fetched again when it is
    // back ('online' can come a moment before requests get through, so a few spaced retries follow).
    let tries = 0;
    const bootstrap = (): Promise<void> =>
      useUser
        .getState()
        .bootstrap()
        .catch((e) => {
          handleError(e, { background: true });
          if (navigator.onLine && ++tries <= 5) setTimeout(() => void bootstrap(), 1500 * tries);
        });
    window.addEventListener('online', () => {
      // An account shown from its last known state (offline) is asked for again too.
      if (useUser.getState().ready && !useUser.getState().offline) return;
      tries = 0;
      void bootstrap();
    });
    void bootstrap();
  }, []);
}

/** Offline is a state: one banner at the top of every page while the browser has no network. */
function OfflineBanner() {
  const { t } = useTranslation('pwa');
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="pwa-offline">
      <svg
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        aria-hidden="true"
      >
        <path d="M2 8.8a15 15 0 0 1 4.2-2.6M22 8.8A15 15 0 0 0 10.7 5M5 12.5a10 10 0 0 1 5.2-2.7M19 12.5a10 10 0 0 0-2.3-1.6M8.5 16.1a5 5 0 0 1 7 0M12 20h.01M3 3l18 18" />
      </svg>
      <span>{t('offline')}</span>
    </div>
  );
}

/** <link rel="alternate" hreflang> for every language of the current page. */
function useAlternateLinks(path: string) {
  useEffect(() => {
    document.head.querySelectorAll('link[data-alternate]').forEach((l) => l.remove());
    for (const l of LANGUAGES) {
      const link = document.createElement('link');
      link.rel = 'alternate';
      link.hreflang = l;
      link.href = new URL(localizedPath(path, l), window.location.origin).toString();
      link.dataset.alternate = '1';
      document.head.appendChild(link);
    }
  }, [path]);
}

export function Shell({ lng }: { lng: Language }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useBoot();
  useEffect(() => void setLanguage(lng), [lng]);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  const { path } = splitLanguage(location.pathname);
  useAlternateLinks(path);

  return (
    <LangContext.Provider value={lng}>
      <div className="app">
        <a className="skip-link" href="#main">
          {t('nav.skip')}
        </a>
        <header className="site-header">
          <OfflineBanner />
          <div className="container header-row">
            <L to="/" className="brand" aria-label="Pixmill">
              <span className="brand-mark" aria-hidden="true" />
              Pixmill
            </L>
            <CreditsPill />
            <button
              className="btn btn-ghost menu-toggle"
              aria-expanded={menuOpen}
              aria-controls="site-nav"
              onClick={() => setMenuOpen((v) => !v)}
            >
              {t('nav.menu')}
            </button>
            <nav id="site-nav" className={`site-nav ${menuOpen ? 'open' : ''}`} aria-label={t('nav.main')}>
              <details className="nav-features">
                <summary>{t('nav.features')}</summary>
                <ul>
                  {FEATURE_PAGES.map((f) => (
                    <li key={f.path}>
                      <NL to={f.path}>{t(`featurePages.${f.key}`)}</NL>
                    </li>
                  ))}
                </ul>
              </details>
              <NL to="/batch-process/">{t('nav.workspace')}</NL>
              <NL to="/pricing/?source=header&medium=nav_link">{t('nav.pricing')}</NL>
              <NL to="/posts/">{t('nav.blog')}</NL>
              <AccountNav />
              <LanguageLinks lng={lng} path={path} search={location.search} />
            </nav>
          </div>
        </header>
        <main id="main" className="site-main" tabIndex={-1}>
          <Suspense
            fallback={
              <div className="container page route-loading">
                <span className="spinner" aria-hidden="true" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </main>
        <Footer />
        <Dialogs />
        <Suspense fallback={null}>
          <PwaStatus />
        </Suspense>
      </div>
    </LangContext.Provider>
  );
}

/** The dialog host (previews, works, the first-use choice behind it) loads with the first dialog or toast. */
function Dialogs() {
  const wanted = useDialogs((s) => s.stack.length > 0 || s.toast !== null || s.downloading !== null);
  const [mounted, setMounted] = useState(false);
  if (wanted && !mounted) setMounted(true);
  if (!mounted && !wanted) return null;
  return (
    <Suspense fallback={null}>
      <DialogHost />
    </Suspense>
  );
}

function CreditsPill() {
  const { t } = useTranslation();
  const { credits, ready, level, logged, offline } = useUser();
  if (!ready) return null;
  // A guest out of credits is still a guest, not an "Expired" account.
  return (
    <span
      className={`credits-pill${offline ? ' is-offline' : ''}`}
      title={t(offline ? 'credits.offlineTitle' : 'credits.title')}
      data-testid="credits"
      data-offline={offline ? '1' : undefined}
    >
      {t('credits.left', { count: credits })}
      {logged && level !== 'guest' && level !== 'register' ? (
        <span className={`level level-${level}`}>{t(`levels.${level}`)}</span>
      ) : null}
      {offline ? <span className="credits-offline"> ({t('credits.offline')})</span> : null}
    </span>
  );
}

function AccountNav() {
  const { t } = useTranslation();
  const { logged } = useUser();
  return (
    <>
      {logged ? (
        <NL to="/my-account/">{t('nav.account')}</NL>
      ) : (
        <>
          <NL to="/login/">{t('nav.login')}</NL>
          <L to="/register/" className="btn btn-primary btn-sm">
            {t('nav.register')}
          </L>
        </>
      )}
    </>
  );
}

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', ja: '日本語' };

function LanguageLinks({ lng, path, search }: { lng: Language; path: string; search: string }) {
  const { t } = useTranslation();
  return (
    <details className="lang-switch">
      {/* The accessible name starts with the visible text (WCAG 2.5.3, label in name): "English, Language". */}
      <summary>
        {LANGUAGE_NAMES[lng]}
        <span className="sr-only">, {t('nav.language')}</span>
      </summary>
      <ul>
        {LANGUAGES.map((l) => (
          <li key={l}>
            <Link
              to={localizedPath(path, l) + search}
              hrefLang={l}
              lang={l}
              aria-current={l === lng ? 'true' : undefined}
              data-testid={`lang-${l}`}
            >
              {LANGUAGE_NAMES[l]}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <div className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Pixmill
          </div>
          <p className="muted">{t('footer.tagline')}</p>
        </div>
        <div>
          <h2>{t('footer.tools')}</h2>
          <ul>
            {FEATURE_PAGES.map((f) => (
              <li key={f.path}>
                <L to={f.path}>{t(`featurePages.${f.key}`)}</L>
              </li>
            ))}
            <li>
              <L to="/image-cropper/">{t('footer.cropper')}</L>
            </li>
            <li>
              <L to="/image-resizer/">{t('footer.resizer')}</L>
            </li>
            <li>
              <L to="/image-rotator/">{t('footer.rotator')}</L>
            </li>
            <li>
              <L to="/flip-image/">{t('footer.flip')}</L>
            </li>
          </ul>
        </div>
        <div>
          <h2>{t('footer.product')}</h2>
          <ul>
            <li>
              <L to="/batch-process/">{t('nav.workspace')}</L>
            </li>
            <li>
              <L to="/upload/">{t('footer.upload')}</L>
            </li>
            <li>
              <L to="/single-process/">{t('footer.single')}</L>
            </li>
            <li>
              <L to="/image-editor/">{t('footer.editor')}</L>
            </li>
            <li>
              <L to="/pricing/?source=footer&medium=footer_link">{t('nav.pricing')}</L>
            </li>
            <li>
              <L to="/download-win/">{t('footer.download')}</L>
            </li>
            <li>
              <L to="/api-docs/">{t('footer.api')}</L>
            </li>
          </ul>
        </div>
        <div>
          <h2>{t('footer.company')}</h2>
          <ul>
            <li>
              <L to="/about-us/">{t('footer.about')}</L>
            </li>
            <li>
              <L to="/contact/">{t('footer.contact')}</L>
            </li>
            <li>
              <L to="/posts/">{t('nav.blog')}</L>
            </li>
            <li>
              <L to="/author/">{t('footer.author')}</L>
            </li>
            <li>
              <L to="/privacy-policy/">{t('footer.privacy')}</L>
            </li>
            <li>
              <L to="/term-of-use/">{t('footer.terms')}</L>
            </li>
            <li>
              <L to="/user-agreement/">{t('footer.agreement')}</L>
            </li>
            <li>
              <L to="/sitemap/">{t('footer.sitemap')}</L>
            </li>
          </ul>
        </div>
      </div>
      <div className="container footer-bottom muted">© 2026 Pixmill · {t('footer.rights')}</div>
    </footer>
  );
}
