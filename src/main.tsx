import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './app/App.js';
import { splitLanguage } from './shared/domain/links.js';
import { i18n, setLanguage } from './i18n/index.js';
import { listenForInstall } from './pwa/installPrompt.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/workspace.css';
import './styles/dialogs.css';
import './styles/pages.css';

// The browser's install offer comes once, early: kept for the desktop-app page's button.
listenForInstall();

// The page's language is loaded before the first paint, so a /ja/ page never flashes English.
await setLanguage(splitLanguage(location.pathname).lng);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <App />
    </I18nextProvider>
  </StrictMode>,
);
