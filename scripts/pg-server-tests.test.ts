import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module without types
import { checkSkipList, integrationFiles, reachesTestDatabase, readSkipList, root, selectedFiles } from './pg-server-tests.mjs';

/**
 * The rule for the second integration run (.ci/run, against the machine's PostgreSQL): every integration
 * test file but those in .ci/pg-server-skip.txt, and none of those may reach the test database or be
 * SQL-engine code's own test.
 */
const LONG_REASON = 'a reason long enough to be one';

describe('the second run against the machine\'s PostgreSQL', () => {
  it('knows the same integration test files as vitest', () => {
    const listed = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'list', '--project', 'integration', '--filesOnly', '--json'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(listed.status, listed.stderr).toBe(0);
    const files = (JSON.parse(listed.stdout) as { file: string }[]).map((entry) => path.relative(root, entry.file)).sort();
    expect(files.length).toBeGreaterThan(50);
    expect(integrationFiles()).toEqual(files);
  });

  it('has a skip list whose every line names an integration test file that never reaches the test database, with its reason', () => {
    expect(checkSkipList()).toEqual([]);
  });

  it('runs every integration test file but the listed ones, a new file included', () => {
    const files = ['server/a.int.test.ts', 'server/b.int.test.ts', 'server/new.int.test.ts'];
    expect(selectedFiles(`# comment\nserver/b.int.test.ts: ${LONG_REASON}\n`, files)).toEqual(['server/a.int.test.ts', 'server/new.int.test.ts']);
    const all = integrationFiles();
    const selected = selectedFiles();
    const skipped = readSkipList(fs.readFileSync(path.join(root, '.ci/pg-server-skip.txt'), 'utf8')).entries.map((e: { file: string }) => e.file);
    expect(selected.length + skipped.length).toBe(all.length);
  });

  it('refuses to skip a file that reaches the test database, naming the file and how', () => {
    const errors = checkSkipList(`server/postgrest/read.int.test.ts: ${LONG_REASON}\nserver/features/hosted/api-tokens.int.test.ts: ${LONG_REASON}\n`);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^\.ci\/pg-server-skip\.txt:1: server\/postgrest\/read\.int\.test\.ts reaches the test database or SQL-engine code \(lives in server\/postgrest\/; .*\): it must run against the machine's PostgreSQL$/);
    // Through a test helper of its own (startFront makes the front app on a test database).
    expect(errors[1]).toContain('imports server/features/hosted/testing/hosted.ts, which makes a test database, or the app on one');
  });

  it('refuses a line without a reason, a file listed twice and a file that does not exist', () => {
    const icmp = 'server/features/health/tests/icmp.int.test.ts';
    expect(checkSkipList(`${icmp}\n${icmp}: ${LONG_REASON}\nserver/gone.int.test.ts: ${LONG_REASON}\n`)).toEqual([
      `.ci/pg-server-skip.txt:1: ${icmp} needs its reason after a colon (why its result cannot differ between PostgreSQL servers)`,
      `.ci/pg-server-skip.txt:2: ${icmp} is listed twice`,
      '.ci/pg-server-skip.txt:3: server/gone.int.test.ts is not an integration test file (moved or removed? take its line out)',
    ]);
  });

  it('sees each way a test reaches the test database', () => {
    const file = 'server/features/x/tests/x.int.test.ts';
    const cases: [string, string][] = [
      ["import { createTestApp } from '../../../../test/app';\nconst t = await createTestApp();", 'makes a test database, or the app on one'],
      ["import { createTestApp } from '../../../../test/app';", 'imports test/app.ts'],
      ["import { createTestDatabase, type TestDatabase } from '../../../../test/db';", 'imports test/db.ts'],
      ["const db = await createTestDatabase({ empty: true });", 'makes a test database, or the app on one'],
      ["const url = inject('templateUrl');", 'connects to the test database'],
      ['const url = process.env.TEST_DATABASE_URL;', 'connects to the test database'],
      ["const { seed } = await import('../../../../test/db');", 'imports test/db.ts'],
      ["import { startFront } from '../../hosted/testing/hosted';", 'imports server/features/hosted/testing/hosted.ts, which makes a test database, or the app on one'],
    ];
    for (const [text, says] of cases) expect(reachesTestDatabase(file, text), text).toContain(says);
    expect(reachesTestDatabase('server/postgrest/y.int.test.ts', '')).toEqual(['lives in server/postgrest/']);
    expect(reachesTestDatabase('server/features/views/tests/y.int.test.ts', '')).toEqual(['lives in server/features/views/']);
  });

  it('does not count what stays the same in both runs', () => {
    const file = 'server/features/health/tests/x.int.test.ts';
    // The check harness takes a TestApp type and a pool that never connects: it gives no test database.
    expect(reachesTestDatabase(file, "import type { TestApp } from '../../../../test/app';\nimport { outcome } from './check-harness';")).toEqual([]);
    // `serve` on its own embedded data directory; the machine's server at a fixed address.
    expect(reachesTestDatabase('test/x.int.test.ts', "import { startServe, tempDataDir } from './cli';\nawait startServe({ WATCHKEEPER_DATA: dir }, port);")).toEqual([]);
    expect(reachesTestDatabase(file, "await test('postgres', { url: 'postgres://127.0.0.1:5432/postgres' });")).toEqual([]);
  });
});
