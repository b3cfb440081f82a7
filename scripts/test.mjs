#!/usr/bin/env node
// `npm test`: every test, one project after another (unit, integration on a real PostgreSQL, then the
// browser journeys on the built app), ending with one line `N passed, N failed`.
// `npm test -- --project integration` runs one project; other arguments go to vitest.
// Each step prints how long it took; at the end come the durations, the slowest test files (timed whole
// by scripts/file-times-reporter.mjs) and the summary line. `--label <name>` names the run's files in
// .tmp/test-results (default `run`); `--no-slowest` leaves the slowest files to the caller (.ci/run).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDuration, slowestLines } from './test-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const projects = [];
const rest = [];
let label = '';
let showSlowest = true;
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--project' && args[i + 1]) projects.push(args[(i += 1)]);
  else if (args[i] === '--label' && args[i + 1]) label = args[(i += 1)];
  else if (args[i] === '--no-slowest') showSlowest = false;
  else rest.push(args[i]);
}
const selected = projects.length > 0 ? projects : ['unit', 'integration', 'e2e'];
const resultsDir = path.join(root, '.tmp', 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });

const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const fileTimesReporter = path.join(root, 'scripts', 'file-times-reporter.mjs');
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
/** How long each step took: `{ name, ms }`, in the order they ran. */
const durations = [];
const timed = (name, started) => {
  const ms = Date.now() - started;
  durations.push({ name, ms });
  process.stdout.write(`${name} took ${formatDuration(ms)}\n`);
};

// The whole tree type-checks (TypeScript strict) and lints (ESLint) before any test runs; each counts as one check.
// They are independent and each mostly one process on one core, so they run side by side (on a 2-core
// machine the pair takes about as long as the lint alone); each one's output is printed whole when it ends.
if (projects.length === 0) {
  const checks = [
    { name: 'typecheck', args: [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'] },
    // ESLint (eslint.config.mjs: type-aware rules, import cycles) over the whole tree.
    { name: 'lint', args: [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--max-warnings', '0', '.'] },
  ];
  const started = Date.now();
  const results = await Promise.all(
    checks.map(
      (check) =>
        new Promise((resolve) => {
          let output = '';
          const child = spawn(process.execPath, check.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.once('error', (error) => resolve({ ...check, status: 1, output: `${output}${error.message}\n`, ms: Date.now() - started }));
          child.once('close', (status) => resolve({ ...check, status, output, ms: Date.now() - started }));
        }),
    ),
  );
  for (const check of results) {
    process.stdout.write(`\n=== ${check.name} ===\n${check.output}`);
    if (check.status === 0) {
      passed += 1;
      process.stdout.write(`${check.name} passed\n`);
    } else {
      failed += 1;
      broken = true;
    }
    durations.push({ name: check.name, ms: check.ms });
    process.stdout.write(`${check.name} took ${formatDuration(check.ms)}\n`);
  }
}
for (const project of selected) {
  const outputFile = path.join(resultsDir, `${label || 'run'}-${project}.json`);
  const timesFile = path.join(resultsDir, `${label || 'run'}-${project}-files.json`);
  fs.rmSync(outputFile, { force: true });
  fs.rmSync(timesFile, { force: true });
  process.stdout.write(`\n=== ${project} tests${label ? ` (${label})` : ''} ===\n`);
  const started = Date.now();
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`, `--reporter=${fileTimesReporter}`];
  const run = spawnSync(process.execPath, [vitest, 'run', '--project', project, ...reporters, ...rest], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, WK_FILE_TIMES: timesFile },
  });
  timed(`${project} tests`, started);
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
fs.writeFileSync(path.join(resultsDir, `${label || 'run'}-summary.json`), JSON.stringify({ passed, failed, skipped, durations }));
process.stdout.write('\nDurations:\n');
for (const step of durations) process.stdout.write(`  ${step.name}: ${formatDuration(step.ms)}\n`);
if (showSlowest) {
  const lines = slowestLines(resultsDir, selected.map((project) => `${label || 'run'}-${project}`), root);
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}
process.stdout.write(`\n${summary}\n`);
process.exit(broken || failed > 0 ? 1 : 0);
