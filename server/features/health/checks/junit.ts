import fs from 'node:fs/promises';
import { z } from 'zod';
import { defineCheckType } from '../define';
import { parseJunit, totalsOf, type JunitSuite, type JunitTest, type Totals } from './junit-xml';
import { reportFiles } from './report-files';

/** A report larger than this is not read (a JUnit file is rarely more than a few MiB). */
const MAX_REPORT = 20 * 1024 * 1024;
/** Failed tests named in the message, as canary-checker lists them. */
const NAMED_FAILURES = 10;
const KEPT_FAILURES = 50;

/**
 * canary-checker's JunitCheck runs a pod and reads the reports it writes to `testResults`. Here there is no
 * pod: `testResults` names report files on this server (a file, a directory of *.xml, or a glob), written
 * by a CI job or a cron. `spec` (the pod) and `artifacts` are not supported and reported as such.
 */
const schema = z
  .object({
    testResults: z.string({ message: 'is required: a JUnit XML file, a directory of them, or a glob such as /var/reports/**/*.xml' }).trim().min(1, 'is required'),
    timeout: z.number().int().positive('must be a number of minutes').optional(),
  })
  .loose();

function summary(totals: Totals): string {
  const parts = [`${totals.passed} passed`];
  if (totals.failed) parts.push(`${totals.failed} failed`);
  if (totals.error) parts.push(`${totals.error} errors`);
  if (totals.skipped) parts.push(`${totals.skipped} skipped`);
  return `${parts.join(', ')}${totals.duration ? ` in ${totals.duration}s` : ''}`;
}

const label = (test: JunitTest) => (test.classname ? `${test.classname}.${test.name}` : test.name);

/**
 * `junit`: reads the JUnit XML reports `testResults` names and passes when no test failed or errored.
 * Variables: results ({passed, failed, skipped, error, duration, suites: [{name, …totals, tests}]} as in
 * canary-checker), tests (every test with its suite), failures (the failed and errored tests), files.
 */
export const junitCheck = defineCheckType({
  type: 'junit',
  label: 'JUnit reports',
  icon: 'flask-conical',
  schema,
  endpoint: (spec) => spec.testResults,
  timeoutMs: (spec) => (spec.timeout ? spec.timeout * 60_000 : undefined),
  async run(spec, ctx) {
    const files = await reportFiles(spec.testResults);
    if (files.length === 0) return { pass: false, invalid: true, message: `no JUnit reports match ${spec.testResults}`, data: {} };
    const suites: JunitSuite[] = [];
    for (const file of files) {
      if (ctx.signal.aborted) return { pass: false, message: 'timed out reading the reports', error: 'timeout', data: {} };
      const stat = await fs.stat(file);
      if (stat.size > MAX_REPORT) return { pass: false, invalid: true, message: `${file} is larger than ${MAX_REPORT / 1024 / 1024} MiB`, data: {} };
      const parsed = parseJunit(await fs.readFile(file, 'utf8'));
      if ('problem' in parsed) return { pass: false, invalid: true, message: `${file} ${parsed.problem}`, data: { files } };
      suites.push(...parsed.suites);
    }
    const tests = suites.flatMap((suite) => suite.tests);
    const failures = tests.filter((test) => test.status === 'failed' || test.status === 'error');
    const totals = totalsOf(tests);
    const data = { results: { ...totals, suites }, tests, failures, files };
    const details = {
      ...totals,
      files,
      failures: failures.slice(0, KEPT_FAILURES).map((test) => ({ suite: test.suite, name: test.name, classname: test.classname, status: test.status, message: test.message })),
    };
    // canary-checker reports the duration the tests took, not the time spent reading the reports.
    const duration = Math.round(totals.duration * 1000);
    if (failures.length > 0) {
      const named = failures.slice(0, NAMED_FAILURES).map(label).join(', ');
      const more = failures.length > NAMED_FAILURES ? ` and ${failures.length - NAMED_FAILURES} more` : '';
      return { pass: false, duration, message: `${summary(totals)}: ${named}${more}`, data, details };
    }
    return { pass: true, duration, message: tests.length === 0 ? `no tests in ${files.length} report${files.length === 1 ? '' : 's'}` : summary(totals), data, details };
  },
});
