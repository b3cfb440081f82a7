import type { CheckResult } from './results';
import type { CheckRun, CheckRunOutcome } from './runner';

/** canary-checker's `spec.resultMode: junit`: the canary's results reported as one JUnit test suite. */
export const JUNIT_RESULT_MODE = 'junit';

/** The combined check a junit-mode canary stores in place of its checks (as canary-checker names it). */
export const COMBINED_CHECK = { type: 'junit', description: 'Result Mode: JUnit Report', spec: { testResults: 'combined' } } as const;

interface JunitTest {
  classname: string;
  name: string;
  status: 'passed' | 'failed';
  message: string;
  error: string | null;
  /** Seconds. */
  duration: number;
  properties: Record<string, string>;
}

export interface JunitSuite {
  name: string;
  passed: number;
  failed: number;
  /** Seconds. */
  duration: number;
  tests: JunitTest[];
}

function testOf(type: string, name: string, description: string | null, labels: Record<string, string>, result: CheckResult): JunitTest {
  return {
    classname: type,
    name: description || name,
    status: result.pass ? 'passed' : 'failed',
    message: result.message,
    error: result.pass ? null : (result.error ?? result.message),
    duration: result.duration / 1000,
    properties: labels,
  };
}

/** Every result of the run, those a transform made included, as a suite named after the canary. */
export function junitSuite(canaryName: string, runs: CheckRun[]): JunitSuite {
  const tests: JunitTest[] = [];
  for (const { check, outcome } of runs) {
    if (outcome.transformed) {
      for (const item of outcome.transformed) tests.push(testOf(item.type ?? check.type, item.name, item.description, { ...check.labels, ...item.labels }, item.result));
    } else {
      tests.push(testOf(check.type, check.name, check.description, check.labels, outcome.result));
    }
  }
  const passed = tests.filter((test) => test.status === 'passed').length;
  return { name: canaryName, passed, failed: tests.length - passed, duration: tests.reduce((sum, test) => sum + test.duration, 0), tests };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char);
}

/** The suite as a JUnit XML report (the format CI systems read). */
export function junitXml(suite: JunitSuite): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${escapeXml(suite.name)}" tests="${suite.tests.length}" failures="${suite.failed}" time="${suite.duration.toFixed(3)}">`,
  ];
  for (const test of suite.tests) {
    const open = `  <testcase classname="${escapeXml(test.classname)}" name="${escapeXml(test.name)}" time="${test.duration.toFixed(3)}"`;
    const properties = Object.entries(test.properties);
    if (test.status === 'passed' && properties.length === 0) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (properties.length > 0) {
      lines.push('    <properties>', ...properties.map(([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`), '    </properties>');
    }
    if (test.status === 'failed') lines.push(`    <failure message="${escapeXml(test.error ?? '')}">${escapeXml(test.message)}</failure>`);
    lines.push('  </testcase>');
  }
  lines.push('</testsuite>', '');
  return lines.join('\n');
}

/** The one result a junit-mode canary stores: it passes when no test failed; the suite is its details and junit.xml its artifact. */
export function combinedJunitResult(canaryName: string, runs: CheckRun[]): CheckRunOutcome {
  const suite = junitSuite(canaryName, runs);
  const time = runs.map((run) => run.outcome.result.time).sort((a, b) => a.getTime() - b.getTime())[0] ?? new Date();
  const message = `${suite.passed} passed, ${suite.failed} failed in ${suite.duration.toFixed(2)}s`;
  const failures = suite.tests.filter((test) => test.status === 'failed').map((test) => `${test.name}: ${test.error ?? ''}`);
  const xml = junitXml(suite);
  return {
    result: {
      pass: suite.failed === 0,
      invalid: false,
      time,
      duration: Math.round(suite.duration * 1000),
      message,
      error: failures.length > 0 ? failures.join(', ') : null,
      details: { suite: { ...suite }, junit: xml },
      // The report is also kept as a file of the run, for a CI system or a person to download.
      artifacts: [{ path: 'junit.xml', content: Buffer.from(xml), contentType: 'application/xml' }],
    },
    transformed: undefined,
    metrics: runs.flatMap((run) => run.outcome.metrics),
    variables: {},
  };
}
