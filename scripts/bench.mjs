#!/usr/bin/env node
// `npm run bench`: every benchmark under bench/ (files named *.ts that are not tests), one after another.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const scripts = fs
  .readdirSync(path.join(root, 'bench'))
  .filter((file) => file.endsWith('.ts') && !file.includes('.test.') && !file.startsWith('_'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();
let failed = false;
for (const script of scripts) {
  process.stdout.write(`\n=== bench/${script} ===\n`);
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'bench', script)], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
