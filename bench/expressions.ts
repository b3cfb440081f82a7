// The expression language, measured (docs/EXPRESSIONS.md): cel-spec's conformance simple tests (from
// @bufbuild/cel-spec) and evaluations per second for @marcbachmann/cel-js and @bufbuild/cel side by side (the
// engine choice), then the engine as the product ships it, Go-template renders per second
// (bench/expressions-templates.ts), the differential agreement with Go's text/template, and the query
// languages' engines (p50/p95 per engine: bench/_query-engines.ts).
// Run: npx tsx bench/expressions.ts [seconds per expression, default 2]
import { celEnv, isCelError, parse as bufParse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { percent, runConformance, type ConformanceReport } from '../test/conformance/cel-conformance';
import { bufCelAdapter, celJsAdapter, celJsEnvironment } from '../test/conformance/engines';
import { productAdapter } from '../test/conformance/product';
import { runDifferential } from '../test/oracles/gotemplate/differential';
import { evaluateTest } from '../server/platform/expressions';
import { perSecond } from './_rate';

const SECONDS = Number(process.argv[2] ?? 2);

interface Case {
  expr: string;
  /** Variables as each engine takes them (cel-js: ints as bigint, as evaluateCel passes them; @bufbuild/cel: maps as Map). */
  celJs: Record<string, unknown>;
  bufCel: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    expr: 'code == 200 && json.items.size() > 0',
    // evaluateCel turns whole numbers into ints except under `json`, whose numbers stay doubles.
    celJs: { code: 200n, json: { items: [1, 2, 3] } },
    bufCel: { code: 200n, json: new Map([['items', [1, 2, 3]]]) },
  },
  {
    expr: "name.lowerAscii().startsWith('api-') && name.endsWith('-prod') && name.size() < 64",
    celJs: { name: 'API-gateway-prod' },
    bufCel: { name: 'API-gateway-prod' },
  },
  {
    expr: "results.filter(r, r.status == 'healthy').size() * 100 / results.size() >= 50",
    celJs: { results: [{ status: 'healthy' }, { status: 'unhealthy' }, { status: 'healthy' }] },
    bufCel: { results: [new Map([['status', 'healthy']]), new Map([['status', 'unhealthy']]), new Map([['status', 'healthy']])] },
  },
];

const rate = (evaluate: () => unknown) => perSecond(evaluate, SECONDS);

function celJsProgram(item: Case): () => unknown {
  const program = celJsEnvironment().parse(item.expr);
  return () => program(item.celJs);
}

const bufEnv = celEnv({ funcs: strings });
function bufCelProgram(item: Case): () => unknown {
  const program = plan(bufEnv, bufParse(item.expr));
  return () => {
    const result = program(item.bufCel as never);
    if (isCelError(result)) throw new Error(result.message);
    return result;
  };
}

const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

const reports: ConformanceReport[] = [];
process.stdout.write(`CEL conformance (cel-spec simple tests via @bufbuild/cel-spec; cases that only type-check left out)\n`);
for (const adapter of [celJsAdapter(), bufCelAdapter()]) {
  const started = performance.now();
  const report = runConformance(adapter);
  reports.push(report);
  const { total, passed, withoutProtobuf } = report;
  process.stdout.write(
    `  ${adapter.name.padEnd(22)} ${passed}/${total} passed (${percent(passed, total)}); without protobuf messages ${withoutProtobuf.passed}/${withoutProtobuf.total} (${percent(withoutProtobuf.passed, withoutProtobuf.total)}) — ${Math.round(performance.now() - started)} ms\n`,
  );
}
process.stdout.write(`  per file (cel-js / @bufbuild/cel passed of total):\n`);
for (const file of reports[0]!.files) {
  const other = reports[1]!.files.find((item) => item.file === file.file);
  process.stdout.write(`    ${file.file.padEnd(16)} ${String(file.passed).padStart(4)} / ${String(other?.passed ?? 0).padStart(4)} of ${file.passed + file.failed}\n`);
}

process.stdout.write(`\nEvaluations per second (compiled once, ${SECONDS} s per expression, one core)\n`);
const speeds: Array<[number, number]> = [];
for (const item of CASES) {
  const celJs = celJsProgram(item);
  const bufCel = bufCelProgram(item);
  const results = [celJs(), bufCel()];
  if (results.some((result) => result !== true)) throw new Error(`${item.expr}: expected true from both engines, got ${results.map(String).join(' and ')}`);
  const a = rate(celJs);
  const b = rate(bufCel);
  speeds.push([a, b]);
  process.stdout.write(`  ${item.expr}\n    @marcbachmann/cel-js ${fmt(a).padStart(12)} /s    @bufbuild/cel ${fmt(b).padStart(12)} /s    (cel-js ×${(a / b).toFixed(2)})\n`);
}

const [celJsReport, bufReport] = reports as [ConformanceReport, ConformanceReport];
const passWinner = celJsReport.passed >= bufReport.passed ? '@marcbachmann/cel-js' : '@bufbuild/cel';
const geo = (index: 0 | 1) => Math.exp(speeds.reduce((sum, pair) => sum + Math.log(pair[index]), 0) / speeds.length);
const speedRatio = geo(0) / geo(1);
const speedWinner = speedRatio >= 1 ? '@marcbachmann/cel-js' : '@bufbuild/cel';
process.stdout.write(
  `\nVerdict: pass rate — ${passWinner} (${percent(celJsReport.passed, celJsReport.total)} vs ${percent(bufReport.passed, bufReport.total)}; without protobuf ${percent(celJsReport.withoutProtobuf.passed, celJsReport.withoutProtobuf.total)} vs ${percent(bufReport.withoutProtobuf.passed, bufReport.withoutProtobuf.total)}); speed — ${speedWinner} (×${(speedRatio >= 1 ? speedRatio : 1 / speedRatio).toFixed(2)}, geometric mean).\n`,
);

// The engine as the product ships it: its registered functions and options, through evaluateCel (with the
// conversion of a check's variables to CEL and of the answer back to JSON, as every check run pays it).
const product = runConformance(productAdapter());
process.stdout.write(
  `\nAs the product configures it (Flanksource functions and cel-go extensions registered): ${product.passed}/${product.total} conformance cases pass (${percent(product.passed, product.total)}); without protobuf messages ${product.withoutProtobuf.passed}/${product.withoutProtobuf.total} (${percent(product.withoutProtobuf.passed, product.withoutProtobuf.total)}).\n`,
);
const shippedWins = product.withoutProtobuf.passed >= bufReport.withoutProtobuf.passed && speedRatio >= 1;
process.stdout.write(
  `  Kept: ${shippedWins ? '@marcbachmann/cel-js, as configured, passes at least as many protobuf-free cases as @bufbuild/cel and is faster' : 'REVIEW THE CHOICE: @bufbuild/cel now passes more protobuf-free cases or is faster than the shipped engine'} (${percent(product.withoutProtobuf.passed, product.withoutProtobuf.total)} vs ${percent(bufReport.withoutProtobuf.passed, bufReport.withoutProtobuf.total)}).\n`,
);
const checkVariables = { code: 200, json: { items: [1, 2, 3] } };
const target = 'code == 200 && json.items.size() > 0';
if (evaluateTest('test.expr', target, checkVariables) !== true) throw new Error(`${target}: expected true`);
process.stdout.write(`  evaluateTest(${JSON.stringify(target)}) over a check's variables: ${fmt(rate(() => evaluateTest('test.expr', target, checkVariables)))} /s (aim: 200,000)\n`);

process.stdout.write('\n');
await import('./expressions-templates');
const differential = runDifferential();
process.stdout.write(
  `\nGo templates against Go ${differential.go}'s text/template (test/oracles/gotemplate): ${differential.agreeing}/${differential.total} cases agree (${percent(differential.agreeing, differential.total)}); known differences: ${differential.disagreements.map((item) => item.name).join(', ') || 'none'}.\n`,
);

const { runQueryEngines } = await import('./_query-engines');
await runQueryEngines();
