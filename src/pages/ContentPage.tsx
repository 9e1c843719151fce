/** Short content pages (about, contact, legal, posts, API docs, download, author); texts in site.json. */
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle.js';
import { ContactForm } from './ContactForm.js';

const API_ROWS = [
  ['POST', '/api/v2/guest_token'],
  ['POST', '/api/v2/license'],
  ['GET', '/api/v2/point'],
  ['POST', '/web_api/v1/upload'],
  ['POST', '/web_api/v1/transform'],
  ['GET', '/web_api/v1/progress'],
  ['GET', '/web_api/v1/download/'],
  ['GET', '/api/v2/sample/info'],
  ['GET', '/api/work_flow/list'],
] as const;

export function ContentPage({ path }: { path: string }) {
  const { t } = useTranslation('site');
  const slug = path.replaceAll('/', '').replaceAll('-', '_');
  const title = t(`content.${slug}.title` as 'content.about_us.title');
  const body = t(`content.${slug}.body` as 'content.about_us.body');
  usePageTitle(title);
  return (
    <article className="container page prose">
      <h1>{title}</h1>
      {body.split('\n\n').map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      {slug === 'api_docs' && (
        <table className="api-table">
          <thead>
            <tr>
              <th>{t('content.api_docs.method')}</th>
              <th>{t('content.api_docs.path')}</th>
            </tr>
          </thead>
          <tbody>
            {API_ROWS.map(([m, p]) => (
              <tr key={p}>
                <td>{m}</td>
                <td>
                  <code>{p}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {slug === 'contact' && <ContactForm />}
    </article>
  );
}
