/** Authors (/author/): the teams that write the site, each with its bio, its blog posts and the pages it keeps. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { L, useLang } from '../../app/lang.js';
import { BLOG_POSTS } from '../../shared/sitemap.js';
import { Article, type Section } from './Article.js';
import { AUTHOR_IDS, AUTHORS } from './authors.js';
import { dateText, POSTS } from './posts.js';

export function AuthorsPage() {
  const { t } = useTranslation('site');
  const lng = useLang();
  const { hash } = useLocation();
  // A byline links to /author/#<team>: the router does not scroll to the fragment by itself.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  const sections: Section[] = AUTHOR_IDS.map((id) => {
    const a = AUTHORS[id];
    const posts = BLOG_POSTS.filter((slug) => POSTS[slug].author === id);
    return {
      id,
      title: a.name,
      body: (
        <div data-testid="author" data-author={id}>
          <p className="author-role">{a.role}</p>
          <p>{a.bio}</p>
          {posts.length > 0 && (
            <>
              <h3>{t('content.author.posts')}</h3>
              <ul data-testid="author-posts">
                {posts.map((slug) => (
                  <li key={slug}>
                    <L to={`/posts/${slug}/`}>{POSTS[slug].title}</L>{' '}
                    <span className="post-meta">· {dateText(POSTS[slug].date, lng)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>{t('content.author.pages')}</h3>
          <ul>
            {a.pages.map((pg) => (
              <li key={pg.path}>
                <L to={pg.path}>{pg.label}</L>
              </li>
            ))}
          </ul>
        </div>
      ),
    };
  });
  sections.push({
    id: 'how',
    title: 'How we write',
    body: (
      <>
        <p>
          Every text on this site is written by the people who build the part it describes, and checked against the code
          before it is published. Where a page states a number (a size limit, how long something is kept, how many
          routes the API has), the page reads it from the same place the code does, so the text cannot drift from what
          the product really does.
        </p>
        <p>
          Articles are written in English; the menus, titles and buttons around them are translated. If something here
          is wrong or unclear, tell us through the <L to="/contact/">contact form</L>.
        </p>
      </>
    ),
  });
  return (
    <Article
      title={t('content.author.title')}
      intro={t('content.author.body')}
      sections={sections}
      testId="authors-page"
    />
  );
}
