import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, canaryIdOf, runByName } from '../testing/check-harness';

/** junit checks over real report files written in a temp dir: passing, failing, nested, malformed. */
let t: TestApp;
let dir = '';

const PASSING = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="api tests">
  <testsuite name="api" tests="3" failures="0" skipped="1" time="1.5">
    <testcase name="lists users" classname="ApiTest" time="0.5"/>
    <testcase name="creates users" classname="ApiTest" time="1.0"><system-out>created 1 user</system-out></testcase>
    <testcase name="deletes users" classname="ApiTest" time="0"><skipped message="not on CI"/></testcase>
  </testsuite>
</testsuites>`;

const FAILING = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="worker" tests="3" failures="1" errors="1">
  <properties><property name="os" value="linux"/></properties>
  <testcase name="processes jobs" classname="WorkerTest" time="0.25">
    <failure message="expected 3 jobs, got 2" type="AssertionError">AssertionError: expected 3 jobs, got 2
    at WorkerTest.processesJobs (worker.test.ts:12)</failure>
  </testcase>
  <testcase name="retries" classname="WorkerTest" time="0.75"><error message="connection refused"/></testcase>
  <testcase name="stops" classname="WorkerTest" time="0.5">
    <properties><property name="owner" value="team-a"/></properties>
  </testcase>
</testsuite>`;

const NESTED = `<testsuites><testsuite name="outer"><testsuite name="inner"><testcase name="deep" time="0.1"/></testsuite></testsuite></testsuites>`;

function write(relative: string, content: string): string {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-junit-'));
  write('passing/TEST-api.xml', PASSING);
  write('failing/TEST-worker.xml', FAILING);
  write('failing/notes.txt', 'not a report');
  write('all/ci/TEST-api.xml', PASSING);
  write('all/ci/nightly/TEST-nested.xml', NESTED);
  write('all/ci/readme.xml.bak', 'ignored');
  write('broken/TEST-cut.xml', '<testsuite name="cut"><testcase name="a"></testsuite>');
  write('other/page.xml', '<html><body>hello</body></html>');
});

afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

describe('junit', () => {
  it('reads report files, passes when nothing failed, and names the failures', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: junit-checks}
spec:
  junit:
    - name: passing file
      testResults: ${dir}/passing/TEST-api.xml
      test:
        expr: results.passed == 2 && results.skipped == 1 && results.failed == 0 && size(failures) == 0 && results.suites[0].name == 'api' && tests[1].stdout == 'created 1 user'
    - name: failing directory
      testResults: ${dir}/failing
      test:
        expr: failures[0].message == 'expected 3 jobs, got 2' && failures[1].status == 'error' && tests[2].properties.owner == 'team-a'
      transform:
        expr: "tests.map(t, {'name': t.suite + '/' + t.name, 'pass': t.status == 'passed' || t.status == 'skipped', 'message': t.message})"
    - name: glob
      testResults: ${dir}/all/**/TEST-*.xml
      test:
        expr: size(files) == 2 && results.passed == 3 && results.suites.map(s, s.name) == ['api', 'inner']
    - name: malformed
      testResults: ${dir}/broken/TEST-cut.xml
    - name: not junit
      testResults: ${dir}/other
    - name: missing
      testResults: ${dir}/nowhere/*.xml
    - name: from a pod
      testResults: /tmp/junit-results/
      spec: {containers: [{name: tests, image: example/tests}]}
`,
    );
    expect(applied.ok).toBe(true);
    expect(applied.warnings).toEqual(['spec.junit[6].spec is not supported for junit checks; it is ignored']);
    const results = await runByName(t, 'junit-checks');
    expect(results['passing file']).toMatchObject({ pass: true, invalid: false, message: '2 passed, 1 skipped in 1.5s', duration: 1500 });
    expect(results['failing directory']).toMatchObject({
      pass: false,
      invalid: false,
      message: '1 passed, 1 failed, 1 errors in 1.5s: WorkerTest.processes jobs, WorkerTest.retries',
    });
    expect(results['failing directory']?.details).toMatchObject({ passed: 1, failed: 1, error: 1, files: [`${dir}/failing/TEST-worker.xml`] });
    expect(results.glob).toMatchObject({ pass: true, message: '3 passed, 1 skipped in 1.6s' });
    expect(results.malformed).toMatchObject({ pass: false, invalid: true });
    expect(results.malformed?.message).toMatch(new RegExp(`^${dir}/broken/TEST-cut.xml is not valid XML: .+ \\(line \\d+\\)$`));
    expect(results['not junit']).toMatchObject({ pass: false, invalid: true, message: `${dir}/other/page.xml is not a JUnit report (it has no testsuites or testsuite element)` });
    expect(results.missing).toMatchObject({ pass: false, invalid: true, message: `no JUnit reports match ${dir}/nowhere/*.xml` });

    const children = await t.db.pool.query<{ name: string; status: string }>(
      "SELECT name, status FROM checks WHERE canary_id = $1 AND transformed_from IS NOT NULL AND deleted_at IS NULL ORDER BY name",
      [await canaryIdOf(t, 'junit-checks')],
    );
    expect(children.rows).toEqual([
      { name: 'worker/processes jobs', status: 'unhealthy' },
      { name: 'worker/retries', status: 'unhealthy' },
      { name: 'worker/stops', status: 'healthy' },
    ]);
  });
});
