#!/usr/bin/env node
// `npm test`: every test, one project after another (unit, integration on a real PostgreSQL, then the
// browser journeys on the built app), ending with one line `N passed, N failed`.
// `npm test -- --project integration` runs one project; other arguments go to vitest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const projects = [];
const rest = [];
let label = '';
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--project' && args[i + 1]) projects.push(args[(i += 1)]);
  else if (args[i] === '--label' && args[i + 1]) label = args[(i += 1)];
  else rest.push(args[i]);
}
const selected = projects.length > 0 ? projects : ['unit', 'integration', 'e2e'];
const resultsDir = path.join(root, '.tmp', 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });

const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;

// The whole tree type-checks (TypeScript strict) before any test runs; it counts as one check.
if (projects.length === 0) {
  process.stdout.write('\n=== typecheck ===\n');
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  if (tsc.status === 0) {
    passed += 1;
    process.stdout.write('typecheck passed\n');
  } else {
    failed += 1;
    broken = true;
  }
}
for (const project of selected) {
  const outputFile = path.join(resultsDir, `${label || 'run'}-${project}.json`);
  fs.rmSync(outputFile, { force: true });
  process.stdout.write(`\n=== ${project} tests${label ? ` (${label})` : ''} ===\n`);
  const run = spawnSync(process.execPath, [vitest, 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`, ...rest], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  let counted = false;
  if (fs.existsSync(outputFile)) {
    const report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that fails to load or a failing hook counts as a failure even with no failed test.
    const failedSuites = (report.testResults ?? []).filter((file) => file.status === 'failed' && (file.assertionResults ?? []).every((a) => a.status !== 'failed'));
    failed += failedSuites.length;
    counted = true;
  }
  if (run.status !== 0) {
    broken = true;
    if (!counted) failed += 1;
  }
}
const summary = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
fs.writeFileSync(path.join(resultsDir, `${label || 'run'}-summary.json`), JSON.stringify({ passed, failed, skipped }));
process.stdout.write(`\n${summary}\n`);
process.exit(broken || failed > 0 ? 1 : 0);
