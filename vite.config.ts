import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import type { Plugin } from 'vite';
import { heroSampleUrls } from './src/features/showcase/heroSamples.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Server paths that must always reach the network (never cached, never the SPA fallback). */
const API_PATH = /^\/(api|web_api|site-ajax)(\/|$)/;
const DAY_S = 24 * 60 * 60;
/**
 * Small shared modules that the workspace's first load needs and that several of its lazy chunks import:
 * as chunks of their own they would cost a request and ~1 KB of response headers each (six of them:
 * 209.3 KB of JS on /batch-process/ instead of 203.6 KB; home 132.0 → 134.6 KB). They go into the shell —
 * where the harness, while it was a second entry of this build, had put them by importing them statically.
 * Check a change with `npm run bench firstload`.
 */
const WORKSPACE_SMALL_SHARED =
  /[\\/]src[\\/](shared[\\/](domain[\\/](modules|onDevice|filename|work)|onDeviceModels)|pwa[\\/]updateCheck)\.ts$/;

/**
 * The browser tests' pages (the upload harness, tests/e2e/harness/) are a build of their own, never part
 * of the product's: `vite build --mode test-pages` writes them to dist-test/, which the e2e servers serve
 * under /test-pages/ (tests/support/testPages.ts; the product server never does). The e2e global setup
 * builds it when it is stale.
 */
const TEST_PAGES_DIR = 'dist-test';
const testPages = defineConfig({
  plugins: [react()],
  base: '/test-pages/',
  // The harness registers the product's own service worker (/sw.js) and needs none of public/.
  publicDir: false,
  worker: { format: 'es' },
  build: {
    outDir: TEST_PAGES_DIR,
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rollupOptions: { input: { harness: here('./tests/e2e/harness/upload-harness.html') } },
  },
});

/**
 * The hero samples (manifest + one before/after pair per feature page, src/features/showcase/heroSamples.ts)
 * as precache entries, so a feature page's hero works offline (≈ 1 MB); revisions from the file contents.
 * Empty when the samples are not generated (`npm run samples`).
 */
function heroSamplePrecache(): { url: string; revision: string }[] {
  const file = (u: string) => here(`./public${u}`);
  if (!fs.existsSync(file('/samples/manifest.json'))) return [];
  const manifest = JSON.parse(fs.readFileSync(file('/samples/manifest.json'), 'utf8'));
  return heroSampleUrls(manifest)
    .filter((u) => fs.existsSync(file(u)))
    .map((url) => ({
      url,
      revision: crypto
        .createHash('md5')
        .update(fs.readFileSync(file(url)))
        .digest('hex'),
    }));
}

/**
 * Writes .br and .gz next to every text asset after the build, so the server sends compressed bytes
 * without compressing per request (@fastify/static preCompressed).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pixmill-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          fs
            .readdirSync(dir, { withFileTypes: true })
            .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
        for (const file of walk(outDir)) {
          // Hashed assets only: files a deploy rewrites in place (sw.js, index.html, the manifest) must never
          // be shadowed by a stale .br/.gz.
          const rel = path.relative(outDir, file).split(path.sep).join('/');
          if (!/^(assets|locales)\/.+\.(js|mjs|css|svg|json)$/.test(rel) || fs.statSync(file).size < 1024) continue;
          const bytes = fs.readFileSync(file);
          fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
          fs.writeFileSync(
            `${file}.br`,
            zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }
      },
    },
  };
}

const app = defineConfig({
  plugins: [
    react(),
    VitePWA({
      // The update is offered to the user (src/pwa/PwaStatus.tsx), never forced mid-upload.
      registerType: 'prompt',
      // Registration goes through src/pwa/register.ts (workbox-window).
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Pixmill',
        short_name: 'Pixmill',
        description: 'AI image processing workspace: enlarge, denoise, sharpen, remove backgrounds, colorize and more.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#4f46e5',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell: every built script, style, page and icon (source maps excluded).
        globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest,woff2}'],
        globIgnores: ['**/*.map', 'samples/**', 'locales/**'],
        // sw.js without a source map (it named the build machine's path).
        sourcemap: false,
        // Only the heroes' samples are precached (≈ 0.97 MB; the rest are cached at run time: pixmill-samples below).
        additionalManifestEntries: heroSamplePrecache(),
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [API_PATH, /\/[^/?]+\.[^/]+$/],
        cleanupOutdatedCaches: true,
        // Background Sync relay for the offline upload queue (public/sw-sync.js).
        importScripts: ['/sw-sync.js'],
        runtimeCaching: [
          // API answers are per-user and live: NetworkOnly for every method.
          ...(['GET', 'POST', 'PUT', 'DELETE'] as const).map((method) => ({
            // Written out (not API_PATH): Workbox serialises this function into sw.js without its closure.
            urlPattern: ({ url }: { url: URL }) => /^\/(api|web_api|site-ajax)(\/|$)/.test(url.pathname),
            handler: 'NetworkOnly' as const,
            method,
          })),
          {
            urlPattern: ({ url }: { url: URL }) => url.pathname.startsWith('/samples/'),
            handler: 'CacheFirst' as const,
            options: {
              cacheName: 'pixmill-samples',
              expiration: { maxEntries: 120, maxAgeSeconds: 30 * DAY_S },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
          // On-device processing (issue 17): the ONNX models and the onnxruntime-web WASM, fetched on
          // first use only (never precached: the app shell stays small) and kept for offline use.
          {
            urlPattern: ({ url }: { url: URL }) =>
              url.pathname.startsWith('/models/') || /^\/assets\/ort-wasm[^/]*\.wasm$/.test(url.pathname),
            handler: 'CacheFirst' as const,
            options: {
              cacheName: 'pixmill-models',
              expiration: { maxEntries: 8, maxAgeSeconds: 365 * DAY_S },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url }: { url: URL }) => url.pathname.startsWith('/locales/'),
            handler: 'CacheFirst' as const,
            options: {
              cacheName: 'pixmill-locales',
              expiration: { maxEntries: 60, maxAgeSeconds: 7 * DAY_S },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
    precompress(),
  ],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    // No source maps in the build (issue 28: the server sent them, sw.js.map named a build path).
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      // The site only: the browser tests' pages are the test-pages build (above).
      input: { main: here('./index.html') },
      output: {
        // Non-English texts are lazy chunks under /locales/: cached at run time (pixmill-locales), not precached.
        // What the site's entry imports statically is one 'shell' chunk instead of some twenty small
        // ones (each response costs headers and a request slot on a slow first load). Pages, dialogs,
        // Dexie, the worker bridge and the PWA status stay lazy chunks of their own.
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'] },
            { name: 'shell', test: WORKSPACE_SMALL_SHARED },
          ],
        },
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId && /\/locales\/\w+\/\w+\.json$/.test(chunk.facadeModuleId)
            ? 'locales/[name]-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/web_api', '/site-ajax', '/models', '/api-docs'].map((p) => [p, 'http://127.0.0.1:8080']),
    ),
  },
});

export default defineConfig(({ mode }) => (mode === 'test-pages' ? testPages : app));
