// The CEL conformance suite (cel-spec's simple tests, from @bufbuild/cel-spec) against the product's CEL:
// @marcbachmann/cel-js through evaluateCel, with the functions the product registers. Every case passes
// except those in cel-skips.ts, and every case there still fails — the list stays true both ways.
import { describe, expect, it } from 'vitest';
import { conformanceCases, percent, runConformance } from './cel-conformance';
import { CEL_SKIPS, skippedCases } from './cel-skips';
import { productAdapter } from './product';

describe('CEL conformance (cel-spec simple tests)', () => {
  const report = runConformance(productAdapter());
  const skipped = skippedCases();

  it('runs every evaluation case of the simple test files', () => {
    expect(report.total).toBeGreaterThan(2000);
    expect(report.files.map((file) => file.file)).toEqual(expect.arrayContaining(['basic', 'comparisons', 'conversions', 'fields', 'logic', 'macros', 'lists', 'string', 'timestamps']));
  });

  it('passes every case outside the skip list', () => {
    const unexpected = [...report.failures].filter(([id]) => !skipped.has(id)).map(([id, why]) => `${id}: ${why}`);
    expect(unexpected, 'failing cases not in test/conformance/cel-skips.ts').toEqual([]);
  });

  it('still fails every skipped case (remove a case from cel-skips.ts once it passes)', () => {
    const ids = new Set(conformanceCases().map((item) => item.id));
    const unknown = [...skipped.keys()].filter((id) => !ids.has(id));
    expect(unknown, 'skip list ids that are no conformance case').toEqual([]);
    const passing = [...skipped].filter(([id]) => !report.failures.has(id)).map(([id, group]) => `${id} (${group})`);
    expect(passing, 'skipped cases that now pass').toEqual([]);
  });

  const { passed, total } = report.withoutProtobuf;
  it(`passes at least 95% of the cases that need no protobuf: ${passed}/${total} (${percent(passed, total)})`, () => {
    process.stdout.write(`CEL conformance (cel-spec simple tests): ${passed}/${total} cases without protobuf pass (${percent(passed, total)}); ${report.passed}/${report.total} in all (${percent(report.passed, report.total)})\n`);
    expect(passed / total).toBeGreaterThanOrEqual(0.95);
  });

  it('passes every optional-value case that needs no protobuf (optional.of, .?field, [?index], orValue, [?x], {?k: v}…)', () => {
    const optionals = conformanceCases().filter((item) => item.file === 'optionals' && !item.usesProtobuf);
    expect(optionals.length).toBeGreaterThanOrEqual(50);
    expect(optionals.filter((item) => report.failures.has(item.id)).map((item) => `${item.id}: ${report.failures.get(item.id)}`)).toEqual([]);
  });

  it('gives every skip group a reason', () => {
    for (const [group, { reason, cases }] of Object.entries(CEL_SKIPS)) {
      expect(reason.length, group).toBeGreaterThan(20);
      expect(cases.length, group).toBeGreaterThan(0);
    }
  });
});
