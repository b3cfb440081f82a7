#!/usr/bin/env node
// What a test run says at its end, read from .tmp/test-results (written by scripts/test.mjs): the failing
// tests by name, how long each step took (typecheck, each vitest project, per run), the slowest test files,
// and last the one line `N passed, N failed`. `.ci/run` calls it with the runs it expects
// (`--runs run,pg-server --started <unix seconds>`); a run whose summary is missing counts as one failure.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SLOWEST = 15;

/** 850 ms → "0.9s", 75 s → "1m 15s". */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function relative(root, name) {
  const text = String(name ?? '');
  return path.isAbsolute(text) ? path.relative(root, text) : text;
}

/**
 * How long each test file took, per run and project: from the file-times reporter
 * (`<run>-<project>-files.json`), or, for a project without it, from vitest's JSON report (first test's
 * start to last test's end: without the file's imports and beforeAll).
 */
export function fileTimes(dir, root = process.cwd()) {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const times = [];
  const covered = new Set();
  for (const name of names.filter((n) => n.endsWith('-files.json'))) {
    const run = name.slice(0, -'-files.json'.length);
    const data = readJson(path.join(dir, name));
    if (!Array.isArray(data?.files)) continue;
    covered.add(run);
    for (const entry of data.files) {
      if (typeof entry?.file !== 'string' || !Number.isFinite(entry.ms)) continue;
      times.push({ run, file: relative(root, entry.file), ms: entry.ms });
    }
  }
  for (const name of names.filter((n) => n.endsWith('.json') && !n.endsWith('-files.json') && !n.endsWith('-summary.json'))) {
    const run = name.slice(0, -'.json'.length);
    if (covered.has(run)) continue;
    const report = readJson(path.join(dir, name));
    for (const file of report?.testResults ?? []) {
      const ms = Number(file.endTime) - Number(file.startTime);
      if (Number.isFinite(ms)) times.push({ run, file: relative(root, file.name), ms });
    }
  }
  return times;
}

/** The `count` slowest files, slowest first (a tie keeps the file name order). */
export function slowestFiles(times, count = SLOWEST) {
  return [...times].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file) || a.run.localeCompare(b.run)).slice(0, count);
}

/** `failed (<run>-<project>): <file> > <test>` for each failing test, and each file that failed to load or in a hook. */
export function failureLines(dir, root = process.cwd()) {
  const lines = [];
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json') && !n.endsWith('-summary.json') && !n.endsWith('-files.json')).sort() : [];
  for (const name of names) {
    const report = readJson(path.join(dir, name));
    if (!report) continue;
    const run = name.replace(/\.json$/, '');
    for (const file of report.testResults ?? []) {
      const fileName = relative(root, file.name);
      const failures = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failures) lines.push(`failed (${run}): ${fileName} > ${a.fullName ?? a.title}`);
      if (file.status === 'failed' && failures.length === 0) lines.push(`failed (${run}): ${fileName}: ${String(file.message ?? '').split('\n')[0]}`);
    }
  }
  return lines;
}

/** The runs' summaries (`<run>-summary.json`) added up; a missing run is one failure. */
export function totals(dir, runs) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const steps = [];
  for (const run of runs) {
    const summary = readJson(path.join(dir, `${run}-summary.json`));
    if (!summary) {
      failed += 1;
      steps.push({ run, name: 'missing', ms: NaN });
      continue;
    }
    passed += summary.passed ?? 0;
    failed += summary.failed ?? 0;
    skipped += summary.skipped ?? 0;
    for (const step of summary.durations ?? []) steps.push({ run, name: step.name, ms: step.ms });
  }
  return { passed, failed, skipped, steps };
}

export function summaryLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

/** Every line of the report, the summary line last. */
export function reportLines(dir, runs, root = process.cwd(), { count = SLOWEST, elapsedMs } = {}) {
  const lines = [...failureLines(dir, root)];
  const total = totals(dir, runs);
  lines.push('', 'Durations:');
  for (const step of total.steps) {
    lines.push(step.name === 'missing' ? `  ${step.run}: no summary (the run did not finish)` : `  ${step.name}${step.run === 'run' ? '' : ` (${step.run})`}: ${formatDuration(step.ms)}`);
  }
  if (elapsedMs !== undefined) lines.push(`  all of it, installs included: ${formatDuration(elapsedMs)}`);
  lines.push(...slowestLines(dir, runs, root, count));
  lines.push('', summaryLine(total));
  return lines;
}

/**
 * The slowest test files of these runs (a label such as `run`, or one project's run such as `run-unit`),
 * with a heading; nothing when no file times were written.
 */
export function slowestLines(dir, runs, root = process.cwd(), count = SLOWEST) {
  const times = fileTimes(dir, root).filter((t) => runs.some((run) => t.run === run || t.run.startsWith(`${run}-`)));
  if (times.length === 0) return [];
  const lines = ['', `Slowest ${Math.min(count, times.length)} test files:`];
  for (const t of slowestFiles(times, count)) lines.push(`  ${formatDuration(t.ms).padStart(6)}  ${t.file} (${t.run})`);
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 && args[at + 1] ? args[at + 1].split(',').filter(Boolean) : ['run'];
  // --started <unix seconds>: when the caller began, to say how long all of it took.
  const startedAt = args.indexOf('--started');
  const started = startedAt >= 0 ? Number(args[startedAt + 1]) : NaN;
  const elapsedMs = Number.isFinite(started) ? Date.now() - started * 1000 : undefined;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  process.stdout.write(`${reportLines(path.join(root, '.tmp', 'test-results'), runs, root, { elapsedMs }).join('\n')}\n`);
}
