import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The PWA plugin (manifest, precache, runtime caching) is added by the upload/PWA work.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/web_api': 'http://127.0.0.1:8080', '/site-ajax': 'http://127.0.0.1:8080' } },
});
