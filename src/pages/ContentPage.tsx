/**
 * Content pages. About, blog, API docs, privacy and terms are real articles (src/pages/content/);
 * so are the authors (the teams behind the texts) and the desktop app (installing the PWA, offline, limits);
 * contact and user agreement are short texts in site.json.
 */
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageTitle } from './usePageTitle.js';
import { ContactForm } from './ContactForm.js';
import { AboutPage } from './content/AboutPage.js';
import { ApiDocsPage } from './content/ApiDocsPage.js';
import { AuthorsPage } from './content/AuthorsPage.js';
import { DesktopAppPage } from './content/DesktopAppPage.js';
import { PrivacyPage, TermsPage } from './content/LegalPages.js';
import { BlogIndex, BlogPost } from './content/posts.js';

export function ContentPage({ path }: { path: string }) {
  const slug = path.replaceAll('/', '').replaceAll('-', '_');
  switch (slug) {
    case 'about_us':
      return <AboutPage />;
    case 'posts':
      return <BlogIndex />;
    case 'api_docs':
      return <ApiDocsPage />;
    case 'privacy_policy':
      return <PrivacyPage />;
    case 'term_of_use':
      return <TermsPage />;
    case 'author':
      return <AuthorsPage />;
    case 'download_win':
      return <DesktopAppPage />;
    case 'contact':
    case 'user_agreement':
      return <ShortPage slug={slug} />;
    default:
      return null;
  }
}

/** /posts/<slug>/ */
export function BlogPostPage() {
  const { slug = '' } = useParams();
  return <BlogPost slug={slug} />;
}

/** The pages that are a title and a few paragraphs in site.json (sitemap.ts CONTENT_PAGES). */
function ShortPage({ slug }: { slug: 'contact' | 'user_agreement' }) {
  const { t } = useTranslation('site');
  const title = t(`content.${slug}.title`);
  const body = t(`content.${slug}.body`);
  usePageTitle(title);
  return (
    <article className="container page prose">
      <h1>{title}</h1>
      {body.split('\n\n').map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      {slug === 'contact' && <ContactForm />}
    </article>
  );
}
