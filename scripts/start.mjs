#!/usr/bin/env node
// `npm start`: build when the sources are newer than dist/, then run `watchkeeper serve` in this same
// process. One process (not `sh -c "build && serve"`) so that the signal npm forwards on stop reaches
// the server, which then stops the embedded database cleanly.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
process.argv = [process.argv[0] ?? process.execPath, path.join(root, 'bin', 'watchkeeper.mjs'), 'serve', ...process.argv.slice(2)];
await import('../bin/watchkeeper.mjs');
