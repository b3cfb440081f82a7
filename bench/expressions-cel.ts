// The product's CEL (server/platform/expressions/cel.ts with the functions of ./cel/): evaluations per second of
// typical compiled check expressions through evaluateCel (the path checks take: variables converted, result made
// plain), target ≥ 200,000/s for a check test; and the pass rate of cel-spec's conformance simple tests
// (@bufbuild/cel-spec) through evaluateCel, by file.
// Run: npx tsx bench/expressions-cel.ts [seconds per expression, default 2]
import { evaluateCel } from '../server/platform/expressions';
import { percent, runConformance } from '../test/conformance/cel-conformance';
import { productAdapter } from '../test/conformance/product';
import { perSecond } from './_rate';

const SECONDS = Number(process.argv[2] ?? 2);
const TARGET = 200_000;

const http = {
  code: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' },
  json: { items: [{ name: 'a', status: 'ok' }, { name: 'b', status: 'ok' }], total: 2 },
  body: '{"items":[{"name":"a","status":"ok"},{"name":"b","status":"ok"}],"total":2}',
  sslAge: 0,
  elapsed: 120,
};

const CASES: Array<{ name: string; expr: string; variables: Record<string, unknown> }> = [
  { name: 'check test (typical)', expr: "code == 200 && json.items.size() > 0 && headers['Content-Type'].startsWith('application/json')", variables: http },
  { name: 'macro over the body', expr: "json.items.all(i, i.status == 'ok') && json.items.exists(i, i.name == 'b')", variables: http },
  { name: '.JSON() of a text', expr: 'body.JSON().total == 2', variables: http },
  { name: '.toJSON() of a map', expr: "{'name': 'api', 'pass': code == 200, 'items': json.items.size()}.toJSON()", variables: http },
  { name: 'Flanksource functions', expr: "HumanDuration(duration('90m')) + ' ' + HumanSize(123456) + ' ' + 'a-b'.replace('-', '_')", variables: http },
];

// Warmed up longer: the first runs compile each expression once.
const rate = (evaluate: () => unknown) => perSecond(evaluate, SECONDS, 20_000);

const format = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(`CEL evaluations per second through evaluateCel (${SECONDS}s each, one thread, Node ${process.version})\n`);
let typical = 0;
for (const item of CASES) {
  const value = evaluateCel('bench', item.expr, item.variables);
  const perSecond = rate(() => evaluateCel('bench', item.expr, item.variables));
  if (item === CASES[0]) typical = perSecond;
  console.log(`  ${item.name.padEnd(24)} ${format(perSecond).padStart(12)} evals/s   ${item.expr.slice(0, 70)}${item.expr.length > 70 ? '…' : ''} → ${JSON.stringify(value).slice(0, 40)}`);
}
console.log(`\nTypical check test: ${format(typical)} evals/s (target ≥ ${format(TARGET)}): ${typical >= TARGET ? 'met' : 'NOT MET'}`);

const started = Date.now();
const report = runConformance(productAdapter());
console.log(`\ncel-spec conformance (simple tests) through evaluateCel: ${report.passed}/${report.total} = ${percent(report.passed, report.total)} (${Date.now() - started} ms)`);
for (const file of report.files) {
  if (['math_ext', 'string_ext', 'encoders_ext', 'optionals', 'lists', 'string', 'macros', 'basic'].includes(file.file)) {
    console.log(`  ${file.file.padEnd(14)} ${String(file.passed).padStart(5)}/${String(file.passed + file.failed).padEnd(5)} ${percent(file.passed, file.passed + file.failed)}`);
  }
}
if (typical < TARGET) process.exitCode = 1;
