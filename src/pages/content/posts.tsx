/**
 * The blog: articles about the features, written from the code and the README's measurements
 * (English text; the chrome around it is translated). Slugs live in src/shared/sitemap.ts.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { L, useLang } from '../../app/lang.js';
import { BLOG_POSTS, type BlogSlug } from '../../shared/sitemap.js';
import { LOCAL_STORAGE_EXPIRY_MS, UPLOADED_CACHE_EXPIRY_MS } from '../../shared/domain/constants.js';
import { PLAN_LIMITS, RETENTION_DAYS_DEFAULT } from '../../shared/domain/plans.js';
import { usePageTitle } from '../usePageTitle.js';
import { Article, EnglishOnly, type Section } from './Article.js';
import { AUTHORS, type AuthorId } from './authors.js';
import serverFacts from './serverFacts.json';

interface Post {
  title: string;
  /** ISO date */
  date: string;
  summary: string;
  minutes: number;
  /** the team that wrote it (authors.ts; listed on /author/) */
  author: AuthorId;
  sections: Section[];
}

const HOUR_MS = 3_600_000;
const p = (...paragraphs: ReactNode[]) => paragraphs.map((x, i) => <p key={i}>{x}</p>);

export const POSTS: Record<BlogSlug, Post> = {
  'how-enlarge-works': {
    title: 'How enlarge works: a network, tiles and a check against your original',
    date: '2026-11-16',
    author: 'engines',
    minutes: 4,
    summary:
      'What happens between pressing Start and getting a picture twice, four or eight times as large, and why 6x is built differently.',
    sections: [
      {
        id: 'network',
        title: 'A network that draws the missing detail',
        body: p(
          'Plain resizing (bicubic, Lanczos) only spreads the pixels you have over a larger grid: edges get soft and textures turn to mush. Enlarge runs a neural network trained to predict the fine detail a photo of twice (or four times) the resolution would have. We train these networks ourselves, on photos from Debian\u2019s wallpaper packages that we shrink, blur a little, add sensor noise to and save as JPEG, so that the network learns to undo what happens to real phone pictures as well as plain downscaling. They run with ONNX Runtime on the server\u2019s processors, and the 2x one in your browser.',
          'The network works at 2x. Larger factors are chained: 4x is two 2x passes and 8x three (a 4x network we trained beside it did worse than two 2x passes, so we do not use it). 6x is two 2x passes followed by a Lanczos step of 1.5x. Best quality runs the network on eight flipped and turned copies of the picture and averages them, which gains a little accuracy for eight times the work.',
        ),
      },
      {
        id: 'tiles',
        title: 'Tiles without seams',
        body: p(
          'A photo is too large to go through the network in one piece, so it is cut into overlapping tiles. Each tile gets a margin mirrored from its own border, so the network never sees an artificial black edge, and neighbouring tiles are cross-faded where they overlap. The same tiling code runs on the server and, for enlarge 2x, in your browser.',
        ),
      },
      {
        id: 'check',
        title: 'Checked against your original',
        body: p(
          'A network can invent detail that is not there. After the last pass, the result is checked against your upload: shrunk back to the original size, every difference is pushed back into the large picture (back-projection), so the enlargement stays faithful to what you photographed.',
          'Optional steps before the network reduce noise and blur, because a network sharpens noise as eagerly as detail. The Super HD scene does exactly that: automatic sharpening, then enlarge 2x.',
        ),
      },
      {
        id: 'sizes',
        title: 'Sizes and plans',
        body: p(
          `Free accounts enlarge 2x from pictures of at most ${PLAN_LIMITS.guest.maxSidePx} px on the longer side and ${PLAN_LIMITS.guest.maxMegapixels} megapixels; Basic and Pro offer ${PLAN_LIMITS.basic.scales.join('x, ')}x from pictures of up to ${PLAN_LIMITS.pro.maxSidePx} px on the longer side. A larger upload is reduced to fit before it is sent, and the app tells you so: "2x" then means twice the size that was actually processed. Very large outputs are refused rather than cut: the result may not exceed ${serverFacts.enlargeMaxSidePx} px on a side.`,
          <>
            Try it on the <L to="/image-enlarger/">enlarger page</L>, and compare the result at 1:1 in the preview: that
            is where the difference shows.
          </>,
        ),
      },
    ],
  },
  'background-removal-on-your-device': {
    title: 'Background removal on your device',
    date: '2026-11-18',
    author: 'web-app',
    minutes: 4,
    summary:
      'The same cut-out model the server uses can run in your browser: what it downloads, how close it gets, and what stays on your computer.',
    sections: [
      {
        id: 'model',
        title: 'The model',
        body: p(
          'Background removal runs IS-Net, a segmentation network that decides for every pixel whether it belongs to the subject. Its raw mask is then refined: a guided filter follows the real edges of hair and fur, the inside of the subject is made solid, and the colour of the old background is removed from the edge pixels so the cut-out does not keep a halo. The result is a PNG with transparency.',
        ),
      },
      {
        id: 'device',
        title: 'Running it in the browser',
        body: p(
          'For background removal, enlarge 2x and compression, the app can do the work itself. It runs the ONNX model with onnxruntime-web (WebAssembly with SIMD, on several threads) inside the image worker, so the page stays responsive. The first use downloads the model (about 44 MB for the small IS-Net) and the runtime (about 14 MB); the app shows the size before it starts and keeps both for later use, also offline.',
          'Results made on your device are free and never reach our server. They are limited to the default settings of those three features; everything else still runs on the server.',
        ),
      },
      {
        id: 'parity',
        title: 'How close to the server',
        body: p(
          'We check that the device and the server agree. On the same stored picture, the device\u2019s small model matches the server running the same small model to 40 dB on the transparency mask; the server uses the larger medium IS-Net by default, so a server cut-out is slightly finer than the device one, not bit-for-bit the same.',
          'On our 2-core test machine, a 1-megapixel cut-out took about 13 seconds in the browser against about 5 seconds on the server. A recent laptop is faster.',
        ),
      },
      {
        id: 'try',
        title: 'Try it',
        body: p(
          <>
            Open <L to="/remove-background/">Remove background</L>. When a picture cannot reach the server (for example
            while you are offline), its card offers <em>Process on this device</em>.
          </>,
        ),
      },
    ],
  },
  'old-photo-repair': {
    title: 'Old photo repair: scratches, dust, noise and colour',
    date: '2026-11-20',
    author: 'engines',
    minutes: 3,
    summary:
      'The old-photo scene is four steps in a fixed order. Here is what each one does and how to get the most out of a scan.',
    sections: [
      {
        id: 'steps',
        title: 'Four steps, in this order',
        body: (
          <>
            <ol>
              <li>
                <strong>Repair.</strong> Scratches are found by a thin-line filter at 16 angles that must hold along the
                line and stand out of the local texture, dust by a test against a ring around each speck. A small
                network we trained ourselves (on 31 photos with our own synthetic scratches and dust) finds scratches
                and specks on its own as well, following a scratch through textured stretches where the filter loses it
                and catching specks among leaves that fail the ring test; its long finds must run nearly straight,
                because it also takes the bright curve of a tyre rim for a scratch. What either finds is repaired,
                except where the network is sure a pixel belongs to the photo. The holes are filled by interpolating
                across them from their sides.
              </li>
              <li>
                <strong>Denoise.</strong> Film grain and scanner noise are reduced with non-local means on brightness
                and a guided filter on colour, with a little sharpening.
              </li>
              <li>
                <strong>Colorize.</strong> Sky, vegetation and skin are recognised and get plausible colours; what is
                not recognised stays close to neutral with a gentle warm tone rather than a guessed hue. No colorization
                network is installed, so colours are sensible rather than historically exact.
              </li>
              <li>
                <strong>Enlarge.</strong> Finally the picture is enlarged 2x with the network described in{' '}
                <L to="/posts/how-enlarge-works/">How enlarge works</L>.
              </li>
            </ol>
            <p>Repair runs first on purpose: denoising or enlarging a scratch only makes it harder to remove.</p>
          </>
        ),
      },
      {
        id: 'scan',
        title: 'Scanning tips',
        body: (
          <ul>
            <li>Scan prints at 600 dpi, or photograph them flat in daylight without glare.</li>
            <li>Crop away the scanner bed and any border before uploading.</li>
            <li>
              Keep the original scan: compare before and after in the preview, and try the denoise step alone if the
              scene smooths faces too much.
            </li>
          </ul>
        ),
      },
      {
        id: 'try',
        title: 'Try it',
        body: p(
          <>
            Open <L to="/old-photo-restoration/">Old photo restoration</L>, or pick the old-photo scene in the{' '}
            <L to="/batch-process/">workspace</L>.
          </>,
        ),
      },
    ],
  },
  'privacy-of-your-photos': {
    title: 'The privacy of your photos',
    date: '2026-11-22',
    author: 'server',
    minutes: 3,
    summary: 'Where your pictures go, how long they stay, and what we cannot see even if we wanted to.',
    sections: [
      {
        id: 'stored',
        title: 'What is stored, and for how long',
        body: p(
          `An upload and its results stay on our server only as long as your plan\u2019s retention: by default ${RETENTION_DAYS_DEFAULT.guest} days for guests, ${RETENTION_DAYS_DEFAULT.free} days for free accounts and ${RETENTION_DAYS_DEFAULT.subscriber} days for subscribers. A sweep then deletes the images; the list keeps an "expired" line so you know what happened. An upload that never finished is removed after ${UPLOADED_CACHE_EXPIRY_MS / HOUR_MS} hours.`,
          'You can delete an upload yourself at any time; it is removed from the server too.',
        ),
      },
      {
        id: 'device',
        title: 'What stays in your browser',
        body: p(
          `The workspace keeps its list of works and any upload waiting for the network in your browser\u2019s storage (IndexedDB). When nothing has changed there for ${LOCAL_STORAGE_EXPIRY_MS / HOUR_MS} hours, the app clears it. Pictures processed on your device never leave it.`,
        ),
      },
      {
        id: 'tokens',
        title: 'Tokens and logs',
        body: p(
          `Your browser holds a guest token and, once you log in, a user token. The server keeps only a hash of each, so a copy of our database contains nothing anyone could sign in with. A user token ends ${serverFacts.userTokenDays} days after its last use, a guest token ${serverFacts.guestTokenDays} days after its last use. Our request logs keep the method and path, not your tokens, passwords or the content of your requests.`,
        ),
      },
      {
        id: 'more',
        title: 'The full list',
        body: p(
          <>
            Everything the server stores, with the numbers read from its code, is on the{' '}
            <L to="/privacy-policy/">privacy page</L>.
          </>,
        ),
      },
    ],
  },
};

export const dateText = (iso: string, lng: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString(lng, { year: 'numeric', month: 'long', day: 'numeric' });

export function BlogIndex() {
  const { t } = useTranslation('site');
  const lng = useLang();
  usePageTitle(t('content.posts.title'));
  return (
    <section className="container page prose content-article" data-testid="blog-index">
      <h1>{t('content.posts.title')}</h1>
      <EnglishOnly />
      <ul className="post-list">
        {BLOG_POSTS.map((slug) => {
          const post = POSTS[slug];
          return (
            <li key={slug}>
              <L to={`/posts/${slug}/`} className="post-card" data-testid="post-card">
                <h2 lang="en">{post.title}</h2>
                <p className="post-meta">
                  <span data-testid="byline">{t('content.posts.by', { name: AUTHORS[post.author].name })}</span> ·{' '}
                  {t('content.posts.published', { date: dateText(post.date, lng) })} ·{' '}
                  {t('content.posts.minutes', { count: post.minutes })}
                </p>
                <p lang="en">{post.summary}</p>
                <span className="muted small">{t('content.posts.readMore')} →</span>
              </L>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function BlogPost({ slug }: { slug: string }) {
  const { t } = useTranslation('site');
  const lng = useLang();
  const post = (POSTS as Record<string, Post | undefined>)[slug];
  if (!post) {
    return (
      <section className="container page prose" data-testid="blog-missing">
        <h1>{t('content.posts.title')}</h1>
        <p>{t('content.posts.notFound')}</p>
        <L to="/posts/">{t('content.posts.back')}</L>
      </section>
    );
  }
  return (
    <Article title={post.title} sections={post.sections} testId="blog-post">
      <p className="post-meta">
        <L to="/posts/">← {t('content.posts.back')}</L> ·{' '}
        <L to={`/author/#${post.author}`} data-testid="byline">
          {t('content.posts.by', { name: AUTHORS[post.author].name })}
        </L>{' '}
        · {t('content.posts.published', { date: dateText(post.date, lng) })} ·{' '}
        {t('content.posts.minutes', { count: post.minutes })}
      </p>
    </Article>
  );
}
