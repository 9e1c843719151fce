/** Routes (react-router 7, library mode): every site page, once per language prefix. */
import { BrowserRouter, Route, Routes } from 'react-router';
import { LANGUAGES, localizedPath, type Language } from '../domain/rules.js';
import { Shell } from './Shell.js';
import { CONTENT_PAGES, FEATURE_PAGES, TOOL_PAGES, WORKSPACE_PATHS } from './sitemap.js';
import { WorkspacePage } from '../pages/WorkspacePage.js';
import { FeaturePage } from '../pages/FeaturePage.js';
import { HomePage } from '../pages/HomePage.js';
import { PricingPage } from '../pages/PricingPage.js';
import { LoginPage, RegisterPage } from '../pages/AuthPages.js';
import { AccountPage } from '../pages/AccountPages.js';
import { MyWorkflowsPage } from '../pages/account/pages.js';
import { ContentPage } from '../pages/ContentPage.js';
import { SitemapPage } from '../pages/SitemapPage.js';
import { NotFoundPage } from '../pages/NotFoundPage.js';
import { EditorPage } from '../features/editor/EditorPage.js';
import { ToolPage } from '../pages/ToolPage.js';
import { CheckoutPage } from '../pages/CheckoutPage.js';

function pages(lng: Language) {
  const p = (path: string) => localizedPath(path, lng);
  return (
    <Route key={lng} path={lng === 'en' ? '/' : `/${lng}`} element={<Shell lng={lng} />}>
      <Route index element={<HomePage />} />
      {WORKSPACE_PATHS.map((path) => (
        <Route key={path} path={p(path)} element={<WorkspacePage />} />
      ))}
      {FEATURE_PAGES.map((f) => (
        <Route key={f.path} path={p(f.path)} element={<FeaturePage page={f} />} />
      ))}
      {CONTENT_PAGES.map((path) => (
        <Route key={path} path={p(path)} element={<ContentPage path={path} />} />
      ))}
      {TOOL_PAGES.map((path) => (
        <Route key={path} path={p(path)} element={<ToolPage path={path} />} />
      ))}
      <Route path={p('/pricing/')} element={<PricingPage />} />
      <Route path={p('/login/')} element={<LoginPage />} />
      <Route path={p('/register/')} element={<RegisterPage />} />
      <Route path={p('/my-account/')} element={<AccountPage />} />
      <Route path={p('/my-account/workflow/')} element={<MyWorkflowsPage />} />
      <Route path={p('/image-editor/')} element={<EditorPage />} />
      <Route path={p('/sitemap/')} element={<SitemapPage />} />
      <Route path={p('/checkout/')} element={<CheckoutPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>{LANGUAGES.map(pages)}</Routes>
    </BrowserRouter>
  );
}
