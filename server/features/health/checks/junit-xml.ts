import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isRecord } from '../../../platform/errors';

/** A failure's text (a stack trace) is kept to this length: enough to read, bounded per test. */
const MAX_TEXT = 2000;

export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped';

/** canary-checker's JunitTest, plus the suite it belongs to. */
export interface JunitTest {
  name: string;
  classname: string;
  suite: string;
  duration: number;
  status: TestStatus;
  message: string;
  error: string;
  properties: Record<string, string>;
  stdout: string;
  stderr: string;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  error: number;
  duration: number;
}

export interface JunitSuite extends Totals {
  name: string;
  tests: JunitTest[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  alwaysCreateTextNode: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ['testsuite', 'testcase', 'property', 'failure', 'error', 'skipped', 'system-out', 'system-err'].includes(name),
});

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function field(node: unknown, name: string): string {
  if (!isRecord(node)) return '';
  const value = node[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function text(node: unknown): string {
  if (typeof node === 'string') return node;
  return field(node, '#text');
}

function clip(value: string): string {
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

function seconds(value: string): number {
  const parsed = Number(value.replace(/,/g, ''));
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 0;
}

function properties(node: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  for (const group of list(isRecord(node) ? node.properties : undefined)) {
    for (const property of list(isRecord(group) ? group.property : undefined)) {
      const name = field(property, 'name');
      if (name) found[name] = field(property, 'value') || text(property);
    }
  }
  return found;
}

function testOf(node: unknown, suite: string): JunitTest {
  const record = isRecord(node) ? node : {};
  const failure = list(record.failure)[0];
  const error = list(record.error)[0];
  const skipped = list(record.skipped)[0];
  const outcome = failure ?? error ?? skipped;
  const status: TestStatus = failure !== undefined ? 'failed' : error !== undefined ? 'error' : skipped !== undefined ? 'skipped' : 'passed';
  const body = text(outcome).trim();
  return {
    name: field(record, 'name'),
    classname: field(record, 'classname'),
    suite,
    duration: seconds(field(record, 'time')),
    status,
    message: field(outcome, 'message') || body.split('\n')[0] || '',
    error: status === 'failed' || status === 'error' ? clip(body) : '',
    properties: properties(record),
    stdout: clip(list(record['system-out']).map(text).join('\n')),
    stderr: clip(list(record['system-err']).map(text).join('\n')),
  };
}

export function totalsOf(tests: readonly JunitTest[]): Totals {
  const totals: Totals = { passed: 0, failed: 0, skipped: 0, error: 0, duration: 0 };
  for (const test of tests) {
    totals[test.status] += 1;
    totals.duration += test.duration;
  }
  totals.duration = Math.round(totals.duration * 1000) / 1000;
  return totals;
}

/** Every suite with test cases of its own; nested suites become suites of their own, as go-junit reads them. */
function suitesOf(node: unknown, into: JunitSuite[]): void {
  for (const suite of list(node)) {
    if (!isRecord(suite)) continue;
    const name = field(suite, 'name');
    const tests = list(suite.testcase).map((test) => testOf(test, name));
    if (tests.length > 0 || suite.testsuite === undefined) into.push({ name, ...totalsOf(tests), tests });
    suitesOf(suite.testsuite, into);
  }
}

/** Reads one JUnit XML report: its suites, or a problem that says why it is not one. */
export function parseJunit(xml: string): { suites: JunitSuite[] } | { problem: string } {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { problem: `is not valid XML: ${valid.err.msg} (line ${valid.err.line})` };
  const document: unknown = parser.parse(xml);
  const root = isRecord(document) ? document : {};
  const top = isRecord(root.testsuites) ? root.testsuites.testsuite : root.testsuites === undefined ? root.testsuite : [];
  if (root.testsuites === undefined && root.testsuite === undefined) return { problem: 'is not a JUnit report (it has no testsuites or testsuite element)' };
  const suites: JunitSuite[] = [];
  suitesOf(top, suites);
  return { suites };
}
