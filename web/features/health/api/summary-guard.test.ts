import { describe, expect, it } from 'vitest';
import { check } from '../test-fixtures';
import { summaryAnswerSchema } from './schema';
import { isCheckSummary, parseSummaryAnswer } from './summary-guard';

const answer = (checks: unknown[]) => ({ checks_summary: checks, total: checks.length, from: 'a', to: 'b', source: 'raw', estimate: true, duration: 4 });

describe('summary answer guard', () => {
  const valid = [
    check(),
    check({ status: null, icon: 'http', labels: { a: 'b' }, latency: { p50: null, p95: null, p97: null, p99: null, rolling1h: null } }),
    check({ recent_statuses: { time: [1704067200000], status: [false] } }),
    check({ recent_statuses: { time: [], status: [] } }),
  ];
  const invalid: unknown[] = [
    null,
    [],
    { ...check(), id: 1 },
    { ...check(), status: 'warning' },
    { ...check(), labels: { a: 1 } },
    { ...check(), labels: null },
    { ...check(), uptime: { passed: 1, failed: '0', last_pass: null, last_fail: null } },
    { ...check(), latency: { p50: 1, p95: 1, p97: 1, p99: 1 } },
    { ...check(), last_runtime: undefined },
    { ...check(), recent_statuses: null },
    { ...check(), recent_statuses: [{ time: 1704067200000, status: true }] },
    { ...check(), recent_statuses: { time: ['2024-01-01T00:00:00.000Z'], status: [true] } },
    { ...check(), recent_statuses: { time: [1704067200000], status: ['ok'] } },
    { ...check(), recent_statuses: { time: [1704067200000] } },
  ];

  it('accepts and refuses what the zod schema accepts and refuses', () => {
    for (const value of [...valid, ...invalid]) {
      expect(isCheckSummary(value)).toBe(summaryAnswerSchema.shape.checks_summary.element.safeParse(value).success);
    }
    expect(summaryAnswerSchema.safeParse(answer(valid)).success).toBe(true);
  });

  it("reads canary-checker's empty status as null, as the zod schema does", () => {
    const fresh = { ...check(), status: '' };
    expect(summaryAnswerSchema.shape.checks_summary.element.parse({ ...fresh }).status).toBeNull();
    expect(isCheckSummary(fresh)).toBe(true);
    expect(fresh.status).toBeNull();
  });

  it('returns the answer itself, and names the first bad check', () => {
    const data = answer(valid);
    expect(parseSummaryAnswer(data)).toBe(data);
    expect(() => parseSummaryAnswer(answer([check(), { ...check(), name: null }]))).toThrow('checks_summary[1] is not a check summary');
    expect(() => parseSummaryAnswer({ ...answer(valid), source: 'weekly' })).toThrow('not a checks summary answer');
  });
});
