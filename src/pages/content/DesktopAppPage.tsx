/**
 * Desktop app (/download-win/): Pixmill is an installable PWA. How to install it per browser (and our own
 * install button where the browser offers one, src/pwa/installPrompt.ts), what works offline (README
 * "Offline", src-worker/ondevice), what it stores, updates, uninstalling and the honest limits.
 * Sizes and times are imported from the code that uses them.
 */
import { OWN_NETS } from '../../shared/imaging/netFiles.js';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { MODEL_BYTES, RUNTIME_BYTES } from '../../shared/onDeviceModels.js';
import { L } from '../../app/lang.js';
import { LOCAL_STORAGE_EXPIRY_MS } from '../../shared/domain/constants.js';
import { getInstallState, promptInstall, subscribeInstall } from '../../pwa/installPrompt.js';
import { UPDATE_CHECK_MS } from '../../pwa/updateCheck.js';
import { Article, type Section } from './Article.js';
import { FactTable } from './FactTable.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Megabytes as the workspace's on-device card shows them (decimal, one digit). */
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
/** "12.3 MB" that never breaks between the number and its unit. */
const MB = (bytes: number) => `${mb(bytes)}\u00a0MB`;

/** Our own install button when the browser offered installation; otherwise where the app stands. */
function InstallPanel() {
  const { t } = useTranslation('site');
  const state = useSyncExternalStore(subscribeInstall, getInstallState, () => 'unavailable' as const);
  const [answer, setAnswer] = useState<'accepted' | 'dismissed' | 'unavailable' | undefined>();
  return (
    <div className="install-panel" data-testid="install-panel" data-state={state}>
      {state === 'installed' && <p data-testid="install-installed">{t('content.download_win.installed')}</p>}
      {(state === 'available' || state === 'asking') && (
        <>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="install-button"
            disabled={state === 'asking'}
            onClick={() => void promptInstall().then(setAnswer, () => setAnswer('unavailable'))}
          >
            {t('content.download_win.install')}
          </button>
          <span className="muted small">{t('content.download_win.installHint')}</span>
        </>
      )}
      {state === 'unavailable' && (
        <p data-testid="install-steps-hint">
          {answer === 'dismissed' ? t('content.download_win.dismissed') : t('content.download_win.noOffer')}
        </p>
      )}
    </div>
  );
}

/** What this browser holds for the site right now (caches and IndexedDB together), where it can say. */
function StorageUsage() {
  const { t } = useTranslation('site');
  const [usage, setUsage] = useState<number | undefined>();
  useEffect(() => {
    let live = true;
    void navigator.storage
      ?.estimate?.()
      .then((e) => live && e.usage !== undefined && setUsage(e.usage))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (usage === undefined) return null;
  return (
    <p className="storage-usage" data-testid="storage-usage">
      {t('content.download_win.storageNow', { mb: mb(usage) })}
    </p>
  );
}

export function DesktopAppPage() {
  const { t } = useTranslation('site');
  const esrgan = MB(MODEL_BYTES[OWN_NETS.x2Small]);
  const isnet = MB(MODEL_BYTES['isnet-small']);
  const runtime = MB(RUNTIME_BYTES);
  const sections: Section[] = [
    {
      id: 'install',
      title: 'Install it',
      body: (
        <>
          <p>
            Pixmill is a web app you can install (a &ldquo;progressive web app&rdquo;). Installed, it opens in its own
            window without the browser&rsquo;s address bar, has its own icon in your dock, taskbar, start menu or home
            screen, and starts even without a network. It is the same app as this website: there is nothing to download
            from us and nothing to keep up to date by hand.
          </p>
          <ul data-testid="install-steps">
            <li>
              <strong>Chrome, Edge and other Chromium browsers (Windows, macOS, Linux, ChromeOS):</strong> click the
              install icon at the right end of the address bar, or open the browser menu and choose{' '}
              <em>Install Pixmill</em> (in Edge: <em>Apps → Install this site as an app</em>). Where the browser offers
              it, the button above does the same.
            </li>
            <li>
              <strong>Safari on a Mac (macOS Sonoma or later):</strong> choose <em>File → Add to Dock</em>.
            </li>
            <li>
              <strong>iPhone and iPad:</strong> in Safari, tap the Share button, then <em>Add to Home Screen</em>.
            </li>
            <li>
              <strong>Android:</strong> in Chrome, open the menu and tap <em>Install app</em> or{' '}
              <em>Add to Home screen</em>.
            </li>
            <li>
              <strong>Firefox on the desktop</strong> does not install web apps: use Pixmill in a tab there; offline use
              works in the tab too.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'offline',
      title: 'What works without a network',
      body: (
        <>
          <p>Once the app has been opened with a network, these keep working offline, installed or in a browser tab:</p>
          <ul>
            <li>
              the app itself, the works stored on this device, and the samples and languages you have already seen;
            </li>
            <li>
              the simple tools, which never use our server: <L to="/image-cropper/">crop</L>,{' '}
              <L to="/image-resizer/">resize</L>, <L to="/image-rotator/">rotate</L> and <L to="/flip-image/">flip</L>;
            </li>
            <li>
              dropping new photos: they are checked, fitted to your plan and stored on this device with the status{' '}
              <em>Waiting for network</em>. When the connection returns they upload by themselves, in the order you
              dropped them, and a large upload resumes where it stopped;
            </li>
            <li>
              <strong>processing on this device</strong> for three features. A work whose picture is stored here offers{' '}
              <em>Process on this device</em>; it runs in your browser on the same model files our server uses,
              downloaded once on first use and kept by the app:
            </li>
          </ul>
          <FactTable
            head={['Feature', 'On your device', 'Download, once']}
            rows={[
              [
                'Enlarge 2x',
                'Our 2x super-resolution network, tiled exactly as on the server',
                `${esrgan} model + ${runtime} runtime`,
              ],
              [
                'Remove background',
                'IS-Net (small model) with the server\u2019s edge refinement; PNG with transparency',
                `${isnet} model + the same runtime`,
              ],
              [
                'Compress',
                'your browser\u2019s own encoder (JPEG, or PNG for PNG files); never larger than the original',
                'nothing',
              ],
            ]}
            testId="ondevice-table"
          />
          <p>
            Results made on your device are free and never reach our server. Every other feature, scale and workflow
            needs the server: such works wait until the network is back.{' '}
            <L to="/posts/background-removal-on-your-device/">How on-device background removal works</L>.
          </p>
        </>
      ),
    },
    {
      id: 'storage',
      title: 'What it stores on your computer',
      body: (
        <>
          <ul>
            <li>
              The app itself (its scripts, styles and icons), so it starts offline. It is replaced, not added to, when a
              new version arrives.
            </li>
            <li>
              Your list of works and any photo waiting for the network, in the browser&rsquo;s database (IndexedDB).
              When nothing has changed there for {LOCAL_STORAGE_EXPIRY_MS / HOUR_MS} hours, the app clears it.
            </li>
            <li>
              The on-device models, only after you first use them: {esrgan} for enlarge, {isnet} for background removal,
              and {runtime} of runtime shared by both.
            </li>
            <li>Sample pictures and language files you have opened.</li>
          </ul>
          <StorageUsage />
          <p>
            Your results on our server are kept as the <L to="/privacy-policy/">privacy page</L> says; installing the
            app does not change that.
          </p>
        </>
      ),
    },
    {
      id: 'update',
      title: 'Updates',
      body: (
        <p>
          The app checks for a new version every {UPDATE_CHECK_MS / MINUTE_MS} minutes while it is open and whenever you
          come back to its window. A new version is downloaded in the background; the app then asks you before it
          reloads, so it never interrupts an upload or a running job on its own. If you dismiss the question, the new
          version starts the next time you open the app.
        </p>
      ),
    },
    {
      id: 'uninstall',
      title: 'Uninstalling',
      body: (
        <>
          <ul>
            <li>
              <strong>Chrome and Edge:</strong> in the app&rsquo;s window, open the menu (⋮ or …) in its title bar and
              choose <em>Uninstall Pixmill</em>; or remove it from the list at <code>chrome://apps</code> or{' '}
              <code>edge://apps</code>.
            </li>
            <li>
              <strong>Safari on a Mac:</strong> remove it from the Dock, then delete it from the <em>Applications</em>{' '}
              folder in your home folder.
            </li>
            <li>
              <strong>iPhone, iPad and Android:</strong> press and hold the icon, then choose <em>Remove App</em> or{' '}
              <em>Uninstall</em>.
            </li>
          </ul>
          <p>
            Uninstalling removes the window and the icon. To remove what the app stored as well, clear this site&rsquo;s
            data in your browser&rsquo;s settings (site settings, &ldquo;Delete data&rdquo; or &ldquo;Clear
            storage&rdquo;).
          </p>
        </>
      ),
    },
    {
      id: 'limits',
      title: 'Honest limits',
      body: (
        <ul>
          <li>
            There is no Windows installer or native program: the desktop app is this web app, installed by your browser.
          </li>
          <li>
            Apart from the three features above, processing happens on our server, so most features need a network.
            Logging in, buying a plan and checking credits need it too.
          </li>
          <li>
            On-device processing runs on your processor in the browser and is several times slower than our server, plus
            the one-time download. It offers enlarge 2x only, without the server&rsquo;s optional noise and blur passes,
            and its background removal uses the smaller model, so a server cut-out can differ slightly.
          </li>
          <li>The app does not register itself for image files: drop pictures into its window or use Upload.</li>
          <li>
            Your browser may remove stored data when the disk is nearly full. Safari removes a site&rsquo;s stored data
            after seven days of browser use without visiting it; an app added to the Dock or Home Screen is exempt.
          </li>
          <li>
            Browsers offer installation only for sites served over HTTPS, so a Pixmill server you run yourself needs
            HTTPS for this page&rsquo;s install button to appear.
          </li>
        </ul>
      ),
    },
  ];
  return (
    <Article
      title={t('content.download_win.title')}
      intro={t('content.download_win.body')}
      sections={sections}
      testId="desktop-app-page"
    >
      <InstallPanel />
    </Article>
  );
}
