/**
 * The browser's install offer (Chromium's `beforeinstallprompt`), kept so the desktop-app page can show
 * its own "Install Pixmill" button. The event fires once, early, on any page — so main.tsx starts
 * listening at startup (this module is a few hundred bytes and imports nothing), and the page that
 * shows the button reads the kept event later. Safari and Firefox never send it: the page then shows
 * the browser's own steps instead.
 */

/** Chromium's event (not in TypeScript's DOM library). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export type InstallState =
  /** running as the installed app (its own window) */
  | 'installed'
  /** the browser offered installation: our button can open its dialog */
  | 'available'
  /** the browser's install dialog is open (the offer is spent once it answers) */
  | 'asking'
  /** no offer (already installed in this browser, not installable here, or a browser without the event) */
  | 'unavailable';

let offer: BeforeInstallPromptEvent | undefined;
let justInstalled = false;
let asking = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

const standalone = () =>
  typeof window !== 'undefined' &&
  (window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true);

let started = false;
/** Called once at startup (src/main.tsx). */
export function listenForInstall(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep the offer for our button instead of the browser's mini-infobar; the address-bar icon stays.
    e.preventDefault();
    offer = e as BeforeInstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    offer = undefined;
    justInstalled = true;
    notify();
  });
}

export function getInstallState(): InstallState {
  if (standalone() || justInstalled) return 'installed';
  if (asking) return 'asking';
  return offer ? 'available' : 'unavailable';
}

export function subscribeInstall(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens the browser's install dialog; the offer can be used once, whatever the user answers. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const e = offer;
  if (!e || asking) return 'unavailable';
  asking = true;
  notify();
  try {
    await e.prompt();
    const { outcome } = await e.userChoice;
    if (outcome === 'accepted') justInstalled = true;
    return outcome;
  } finally {
    asking = false;
    offer = undefined;
    notify();
  }
}
