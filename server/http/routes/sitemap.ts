/** GET /sitemap.xml: every site page (spec §2) in en and its /de/, /fr/, /ja/ alternates; GET /robots.txt points to it. */
import type { FastifyInstance } from 'fastify';
import { ALL_PATHS } from '../../../src/shared/sitemap.js';
import type { AppContext } from '../../context.js';
import { Robots, Sitemap } from '../../../src/shared/schemas/site.js';
import { route } from '../schemaRoute.js';
import { LANGUAGES as LANGS } from '../../../src/shared/domain/locale.js';
import { localizedPath as localized } from '../../../src/shared/domain/links.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function sitemapXml(origin: string): string {
  const urls = ALL_PATHS.flatMap((path) =>
    LANGS.map((lng) => {
      const alts = LANGS.map(
        (l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${esc(origin + localized(path, l))}"/>`,
      ).join('\n');
      return `  <url>\n    <loc>${esc(origin + localized(path, lng))}</loc>\n${alts}\n  </url>`;
    }),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Crawlers may read every page; the API's calls are no pages. The sitemap's address is absolute (PUBLIC_URL). */
function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /web_api/',
    'Disallow: /site-ajax/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export async function sitemapRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Addresses come from PUBLIC_URL, never from the Host header (which any client can set, and caches would keep).
  const xml = sitemapXml(ctx.config.publicUrl);
  route(app, Sitemap, async (_f, _req, reply) =>
    reply.type('application/xml').header('cache-control', 'public, max-age=3600').send(xml),
  );
  const robots = robotsTxt(ctx.config.publicUrl);
  route(app, Robots, async (_f, _req, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
}
