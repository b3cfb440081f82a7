// `npm install` (postinstall) and `npm start` run this: it builds what is missing or was built from other
// sources than those here now, compared by content hash (scripts/build-state.mjs), so an unchanged
// checkout goes on at once and a changed one never runs a stale bundle. Only the stale targets are
// built: a web-only change leaves the server bundle alone. Runs at the same time (a test run and a
// start) take turns through dist/.build.lock, and the one that waited checks again before building.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, staleTargets } from './build-state.mjs';

const REASONS = { missing: 'not built yet', unrecorded: 'sources unknown', changed: 'sources changed' };

// As a dependency's install script (this package installed into another project's node_modules, or
// from a tarball without sources) there is nothing to build here.
if (!existsSync(path.join(ROOT, 'server', 'main.ts')) || !existsSync(path.join(ROOT, 'node_modules', 'vite'))) process.exit(0);

const lockFile = path.join(ROOT, 'dist', '.build.lock');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error && error.code === 'EPERM';
  }
}

/** Takes dist/.build.lock, waiting while a live process holds it; a lock whose process is gone is taken over. */
async function lock() {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  let told = false;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (!error || error.code !== 'EEXIST') throw error;
    }
    let text;
    try {
      text = readFileSync(lockFile, 'utf8').trim();
    } catch {
      continue; // released meanwhile
    }
    const holder = Number(text);
    // An empty file is a lock being written this instant, unless it is old (its writer died right there).
    const gone = text === '' ? Date.now() - (statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 5_000 : !Number.isInteger(holder) || !alive(holder);
    if (gone) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (!told) process.stdout.write(`watchkeeper: waiting for the build another process${text ? ` (pid ${holder})` : ''} is running…\n`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

await lock();
let status = 0;
try {
  const stale = staleTargets(ROOT);
  if (stale.length > 0) {
    process.stdout.write(`watchkeeper: building ${stale.map((target) => `${target.name} (${REASONS[target.reason] ?? target.reason})`).join(', ')}…\n`);
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), ...stale.map((target) => target.name)], { cwd: ROOT, stdio: 'inherit' });
    status = result.status ?? 1;
  }
} finally {
  rmSync(lockFile, { force: true });
}
process.exit(status);
