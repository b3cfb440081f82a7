import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module without types
import { fileTimes, formatDuration, reportLines, slowestFiles } from './test-report.mjs';

/**
 * The end of a test run (scripts/test.mjs, .ci/run): durations, the 15 slowest files, the summary line
 * last. The file times come from scripts/file-times-reporter.mjs, run here by a real vitest.
 */
const root = path.resolve(import.meta.dirname, '..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-test-report-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function write(dir: string, name: string, value: unknown) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), JSON.stringify(value));
}

describe('the file-times reporter', () => {
  it('times a file whole, its beforeAll and imports included', () => {
    const project = path.join(temp, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'vitest.config.mjs'), 'export default {};\n');
    fs.writeFileSync(
      path.join(project, 'slow-setup.test.mjs'),
      "import { beforeAll, it, expect } from 'vitest';\nbeforeAll(() => new Promise((resolve) => setTimeout(resolve, 600)));\nit('is quick', () => expect(1).toBe(1));\n",
    );
    const out = path.join(temp, 'times.json');
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', project, '--reporter=dot', `--reporter=${path.join(root, 'scripts', 'file-times-reporter.mjs')}`], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, WK_FILE_TIMES: out },
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const { files } = JSON.parse(fs.readFileSync(out, 'utf8')) as { files: { file: string; project: string; state: string; ms: number; parts: { run: number; import: number } }[] };
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ file: 'slow-setup.test.mjs', state: 'passed' });
    // vitest's JSON report would say a few milliseconds: its file time starts with the first test.
    expect(files[0]!.parts.run).toBeGreaterThanOrEqual(590);
    expect(files[0]!.ms).toBeGreaterThanOrEqual(files[0]!.parts.run + files[0]!.parts.import);
  });
});

describe('the report', () => {
  it('writes durations as seconds, then minutes and seconds', () => {
    expect(formatDuration(860)).toBe('0.9s');
    expect(formatDuration(59_940)).toBe('59.9s');
    expect(formatDuration(75_000)).toBe('1m 15s');
    expect(formatDuration(36 * 60_000 + 4_400)).toBe('36m 04s');
    expect(formatDuration(NaN)).toBe('?');
  });

  it('orders the slowest files first and keeps 15', () => {
    const times = Array.from({ length: 20 }, (_, i) => ({ run: 'run-unit', file: `f${String(i).padStart(2, '0')}.test.ts`, ms: (i % 7) * 1000 + i }));
    const slowest = slowestFiles(times);
    expect(slowest).toHaveLength(15);
    expect(slowest.map((t: { ms: number }) => t.ms)).toEqual([...times.map((t) => t.ms)].sort((a, b) => b - a).slice(0, 15));
  });

  it('ends with durations, the slowest files of every run and the summary line last', () => {
    const dir = path.join(temp, 'results');
    write(dir, 'run-summary.json', { passed: 10, failed: 1, skipped: 2, durations: [{ name: 'typecheck', ms: 61_000 }, { name: 'unit tests', ms: 180_000 }, { name: 'integration tests', ms: 700_000 }] });
    write(dir, 'pg-server-summary.json', { passed: 5, failed: 0, skipped: 0, durations: [{ name: 'integration tests', ms: 400_000 }] });
    write(dir, 'run-unit-files.json', { files: Array.from({ length: 12 }, (_, i) => ({ file: `server/u${i}.test.ts`, ms: 1000 + i })) });
    write(dir, 'run-integration-files.json', { files: [{ file: 'server/slow.int.test.ts', ms: 95_000 }, { file: 'server/fast.int.test.ts', ms: 2_000 }] });
    // A project whose file times are missing: its JSON report's times stand in.
    write(dir, 'pg-server-integration.json', {
      testResults: [
        { name: path.join(root, 'server/slow.int.test.ts'), startTime: 1000, endTime: 81_000, status: 'passed', assertionResults: [] },
        { name: path.join(root, 'server/broken.int.test.ts'), startTime: 0, endTime: 0, status: 'failed', message: 'Cannot find module x\nstack', assertionResults: [] },
      ],
    });
    write(dir, 'run-unit.json', { testResults: [{ name: path.join(root, 'server/u1.test.ts'), status: 'failed', assertionResults: [{ status: 'failed', fullName: 'u1 adds' }] }] });
    const lines: string[] = reportLines(dir, ['run', 'pg-server'], root, { elapsedMs: 25 * 60_000 });
    expect(lines.at(-1)).toBe('15 passed, 1 failed, 2 skipped');
    expect(lines).toContain('  all of it, installs included: 25m 00s');
    expect(lines).toContain('failed (run-unit): server/u1.test.ts > u1 adds');
    expect(lines).toContain('failed (pg-server-integration): server/broken.int.test.ts: Cannot find module x');
    expect(lines).toEqual(expect.arrayContaining(['  typecheck: 1m 01s', '  unit tests: 3m 00s', '  integration tests: 11m 40s', '  integration tests (pg-server): 6m 40s']));
    const heading = lines.indexOf('Slowest 15 test files:');
    expect(heading).toBeGreaterThan(lines.indexOf('Durations:'));
    expect(lines.slice(heading + 1, heading + 4)).toEqual(['  1m 35s  server/slow.int.test.ts (run-integration)', '  1m 20s  server/slow.int.test.ts (pg-server-integration)', '    2.0s  server/fast.int.test.ts (run-integration)']);
    expect(lines.slice(heading + 1).filter((line) => line.startsWith('  ')).length).toBe(15);
  });

  it('counts a run without a summary as a failure, and says so', () => {
    const dir = path.join(temp, 'unfinished');
    write(dir, 'run-summary.json', { passed: 3, failed: 0, skipped: 0, durations: [] });
    const lines: string[] = reportLines(dir, ['run', 'pg-server'], root);
    expect(lines).toContain('  pg-server: no summary (the run did not finish)');
    expect(lines.at(-1)).toBe('3 passed, 1 failed');
    expect(fileTimes(dir, root)).toEqual([]);
  });
});
