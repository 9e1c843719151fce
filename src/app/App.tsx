/** Routes (react-router 7, library mode): every site page, once per language prefix. */
import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LANGUAGES, type Language } from '../shared/domain/locale.js';
import { localizedPath } from '../shared/domain/links.js';
import { Shell } from './Shell.js';
import { CONTENT_PAGES, FEATURE_PAGES, TOOL_PAGES, WORKSPACE_PATHS } from '../shared/sitemap.js';
import { HomePage } from '../pages/HomePage.js';

// Every page but the home page is its own chunk, loaded when its route is first shown: the home page's
// first load carries only the shell and itself (bench/firstload.ts measures it).
const FeaturePage = lazy(() => import('../pages/FeaturePage.js').then((m) => ({ default: m.FeaturePage })));
const PricingPage = lazy(() => import('../pages/PricingPage.js').then((m) => ({ default: m.PricingPage })));
const LoginPage = lazy(() => import('../pages/AuthPages.js').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() => import('../pages/AuthPages.js').then((m) => ({ default: m.RegisterPage })));
const ContentPage = lazy(() => import('../pages/ContentPage.js').then((m) => ({ default: m.ContentPage })));
const BlogPostPage = lazy(() => import('../pages/ContentPage.js').then((m) => ({ default: m.BlogPostPage })));
const SitemapPage = lazy(() => import('../pages/SitemapPage.js').then((m) => ({ default: m.SitemapPage })));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage.js').then((m) => ({ default: m.NotFoundPage })));
const WorkspacePage = lazy(() => import('../pages/WorkspacePage.js').then((m) => ({ default: m.WorkspacePage })));
const EditorPage = lazy(() => import('../features/editor/EditorPage.js').then((m) => ({ default: m.EditorPage })));
const ToolPage = lazy(() => import('../pages/ToolPage.js').then((m) => ({ default: m.ToolPage })));
const CheckoutPage = lazy(() => import('../pages/CheckoutPage.js').then((m) => ({ default: m.CheckoutPage })));
const AccountPage = lazy(() => import('../pages/AccountPages.js').then((m) => ({ default: m.AccountPage })));
const MyWorkflowsPage = lazy(() => import('../pages/account/pages.js').then((m) => ({ default: m.MyWorkflowsPage })));

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
      <Route path={p('/posts/:slug/')} element={<BlogPostPage />} />
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
