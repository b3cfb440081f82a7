// `npm start` runs this first: it builds only when dist is missing or older than a source file, so an
// unchanged checkout starts at once (one directory walk, no compiler).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [path.join(root, 'dist', 'web', 'index.html'), path.join(root, 'dist', 'server', 'main.js')];
const sourceDirs = ['web', 'server', 'common'].map((dir) => path.join(root, dir));
const extraSources = ['package.json', 'package-lock.json'].map((file) => path.join(root, file));

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time under `dir` (tests included: cheap to over-build, wrong to under-build). */
function newest(dir) {
  let latest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return latest;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else latest = Math.max(latest, mtime(full) ?? 0);
  }
  return latest;
}

const builtAt = Math.min(...outputs.map((file) => mtime(file) ?? -1));
const sourcesAt = Math.max(...sourceDirs.map(newest), ...extraSources.map((file) => mtime(file) ?? 0));

if (builtAt < 0 || sourcesAt > builtAt) {
  process.stdout.write(builtAt < 0 ? 'watchkeeper: no build found, building…\n' : 'watchkeeper: sources changed, rebuilding…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
