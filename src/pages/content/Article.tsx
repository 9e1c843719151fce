/** The frame of a long text page: translated title and intro, the English-only note, a table of contents. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/lang.js';
import { usePageTitle } from '../usePageTitle.js';
import './content.css';

export interface Section {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * Long article text is written in English (one place, kept accurate to the code); the page chrome
 * is translated, and other languages see a translated note saying the text is English.
 */
export function EnglishOnly() {
  const { t } = useTranslation('site');
  const lng = useLang();
  if (lng === 'en') return null;
  return (
    <p className="english-only" lang={lng} data-testid="english-only">
      {t('content.englishOnly')}
    </p>
  );
}

export function Article({
  title,
  intro,
  sections,
  testId,
  children,
}: {
  title: string;
  intro?: string;
  sections: Section[];
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('site');
  usePageTitle(title);
  return (
    <article className="container page prose content-article" data-testid={testId}>
      <h1>{title}</h1>
      {intro && <p className="lead">{intro}</p>}
      {children}
      <EnglishOnly />
      {sections.length > 2 && (
        <nav className="toc" aria-label={t('content.contents')}>
          <strong>{t('content.contents')}</strong>
          <ol>
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div lang="en">
        {sections.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-h`}>
            <h2 id={`${s.id}-h`}>{s.title}</h2>
            {s.body}
          </section>
        ))}
      </div>
    </article>
  );
}
