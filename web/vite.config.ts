import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The admin UI, served by Patron under /admin/ (src/admin-ui/admin-ui.plugin.ts). Hashed
 * file names under /admin/assets/ are cached for a year; index.html is never cached.
 * `npm run dev:web` proxies the API to a Patron on port 8080 (docs/admin-ui.md).
 */
export default defineConfig({
  root: here,
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // Vite adds a modulepreload polyfill script inline otherwise; the CSP allows 'self' scripts only.
    modulePreload: { polyfill: false },
    // The budget that matters is the gzipped JavaScript of the first load (scripts/check-bundle.mjs).
    chunkSizeWarningLimit: 1000,
  },
  server: {
    port: 5173,
    proxy: { '/admin/v1': 'http://127.0.0.1:8080' },
  },
});
