/** Every site link of spec §2 and the feature each feature page preselects. */
import type { ModuleName, PresetName } from './domain/modules.js';

/** The feature keys of spec §2's popup workspace; each has a page text (title and lead) in locales/<lng>/site.json (checked in src/i18n/types.ts). */
export type FeatureKey =
  | 'image_enlarger'
  | 'denoise_ai'
  | 'sharpen_ai'
  | 'remove_background'
  | 'toongineer_cartoonizer'
  | 'photo_to_sketch'
  | 'colorize_photo'
  | 'photo_retoucher'
  | 'image_enhancer'
  | 'image_compressor'
  | 'old_photo_restoration';

export interface FeaturePage {
  path: string;
  /** spec §2 feature key of the popup workspace */
  key: FeatureKey;
  module?: ModuleName;
  preset?: PresetName;
}

export const FEATURE_PAGES: readonly FeaturePage[] = [
  { path: '/image-enlarger/', key: 'image_enlarger', module: 'enlarge' },
  { path: '/denoise-ai/', key: 'denoise_ai', module: 'denoise' },
  { path: '/sharpen-ai/', key: 'sharpen_ai', module: 'sharpen' },
  { path: '/remove-background/', key: 'remove_background', module: 'matting' },
  { path: '/toongineer-cartoonizer/', key: 'toongineer_cartoonizer', module: 'cartoonize' },
  { path: '/photo-to-sketch/', key: 'photo_to_sketch', module: 'portrait' },
  { path: '/colorize-photo/', key: 'colorize_photo', module: 'colorize' },
  { path: '/photo-retoucher/', key: 'photo_retoucher', module: 'perfect' },
  { path: '/image-enhancer/', key: 'image_enhancer', module: 'face_enhancer' },
  { path: '/image-compressor/', key: 'image_compressor', module: 'compress' },
  { path: '/old-photo-restoration/', key: 'old_photo_restoration', preset: 'se-old-repair' },
];

export const WORKSPACE_PATHS = ['/batch-process/', '/upload/', '/single-process/'] as const;

export const CONTENT_PAGES = [
  '/about-us/',
  '/contact/',
  '/privacy-policy/',
  '/term-of-use/',
  '/user-agreement/',
  '/posts/',
  '/api-docs/',
  '/download-win/',
  '/author/',
] as const;

/** The blog's articles (src/pages/content/posts.tsx), each at /posts/<slug>/. */
export const BLOG_POSTS = [
  'how-enlarge-works',
  'background-removal-on-your-device',
  'old-photo-repair',
  'privacy-of-your-photos',
] as const;
export type BlogSlug = (typeof BLOG_POSTS)[number];

export const TOOL_PAGES = ['/image-cropper/', '/image-resizer/', '/image-rotator/', '/flip-image/'] as const;

const ACCOUNT_PAGES = ['/login/', '/register/', '/my-account/', '/my-account/workflow/'] as const;

/** All pages, for the sitemap. */
export const ALL_PATHS: readonly string[] = [
  '/',
  '/pricing/',
  ...WORKSPACE_PATHS,
  ...FEATURE_PAGES.map((f) => f.path),
  '/image-editor/',
  ...TOOL_PAGES,
  ...ACCOUNT_PAGES,
  ...CONTENT_PAGES,
  ...BLOG_POSTS.map((slug) => `/posts/${slug}/`),
  '/sitemap/',
];

/** The sample type whose before/after shows a feature page (the old-photo preset shows colorize). */
export function sampleTypeOf(page: Pick<FeaturePage, 'module' | 'preset'>): string {
  return page.module ?? (page.preset === 'se-old-repair' ? 'colorize' : 'enlarge');
}
