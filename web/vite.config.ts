import { readFileSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { formatVersion } from '../common/version';
import { gitCommit } from '../server/platform/build-info';

const root = path.resolve(import.meta.dirname, '..');

function packageVersion(): string {
  const parsed: unknown = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') return parsed.version;
  return 'unknown';
}

/** Dev server on :5173 proxies the API to `npm run dev:server` (:3000); the build lands where the server serves it. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@web': import.meta.dirname,
      '@common': path.join(root, 'common'),
    },
  },
  // The user menu's version line (spec §2: 'frontend X, backend Y'): the package version and the git
  // commit this bundle is built from, baked in at build.
  define: { __WATCHKEEPER_VERSION__: JSON.stringify(formatVersion(packageVersion(), gitCommit(root))) },
  build: {
    outDir: path.join(root, 'dist', 'web'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      // The server's probe; a browser navigating to /health wants the Health page (index.html).
      '/health': { target: 'http://localhost:3000', bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) },
      '/metrics': 'http://localhost:3000',
    },
  },
});
