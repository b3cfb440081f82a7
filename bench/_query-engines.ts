// The query languages of CEL and the Go templates, engine against engine (docs/EXPRESSIONS.md "Query
// languages"): p50 and p95 of one call, per typical expression, for the hand-written subsets and the npm
// packages that implement the whole language. Called by bench/expressions.ts (the underscore keeps this file
// out of `npm run bench` on its own).
import { createRequire } from 'node:module';
import { JSONPath } from 'jsonpath-plus';
import { jmesPath } from '../server/platform/expressions/shared/jmespath';
import { jqOutputs } from '../server/platform/expressions/shared/jq';
import { jsonPathMatches } from '../server/platform/expressions/shared/jsonpath';

const SAMPLES = 20_000;

/** p50 and p95 of one call, in microseconds, after a warm-up. */
function latency(work: () => unknown, samples = SAMPLES): { p50: number; p95: number } {
  for (let i = 0; i < Math.min(2000, samples); i += 1) work();
  const times = new Float64Array(samples);
  for (let i = 0; i < samples; i += 1) {
    const start = process.hrtime.bigint();
    work();
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  times.sort();
  return { p50: times[Math.floor(samples * 0.5)]!, p95: times[Math.floor(samples * 0.95)]! };
}

const us = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} µs`;

const doc = {
  count: 3,
  items: [
    { name: 'api', status: 'healthy', spec: { port: 80 } },
    { name: 'db', status: 'unhealthy', spec: { port: 5432 } },
    { name: 'web', status: 'healthy', spec: { port: 443 } },
  ],
};

interface Row {
  language: string;
  expr: string;
  engines: Array<[string, () => unknown]>;
}

export async function runQueryEngines(): Promise<void> {
  const require = createRequire(import.meta.url);
  // jq-web (jq 1.7 compiled to WebAssembly): loads asynchronously, then answers synchronously.
  const jqWeb = (await (require('jq-web') as Promise<{ json(data: unknown, filter: string): unknown }>)) as { json(data: unknown, filter: string): unknown };
  const rows: Row[] = [
    { language: 'JSONPath', expr: '$.items[*].name', engines: [['subset', () => jsonPathMatches('$.items[*].name', doc)], ['jsonpath-plus', () => JSONPath({ path: '$.items[*].name', json: doc, eval: 'safe', wrap: true })]] },
    { language: 'JSONPath', expr: '$..port', engines: [['subset', () => jsonPathMatches('$..port', doc)], ['jsonpath-plus', () => JSONPath({ path: '$..port', json: doc, eval: 'safe', wrap: true })]] },
    { language: 'JSONPath', expr: "$.items[?(@.status == 'healthy')].name", engines: [['product (jsonpath-plus)', () => jsonPathMatches("$.items[?(@.status == 'healthy')].name", doc)]] },
    { language: 'jq', expr: '.items[] | select(.status == "healthy") | .name', engines: [['subset', () => jqOutputs('.items[] | select(.status == "healthy") | .name', doc)], ['jq-web (wasm)', () => jqWeb.json(doc, '.items[] | select(.status == "healthy") | .name')]] },
    { language: 'jq', expr: '.items | length', engines: [['subset', () => jqOutputs('.items | length', doc)], ['jq-web (wasm)', () => jqWeb.json(doc, '.items | length')]] },
    { language: 'JMESPath', expr: "items[?status=='healthy'].name", engines: [['jmespath', () => jmesPath("items[?status=='healthy'].name", doc)]] },
    { language: 'JMESPath', expr: 'length(items)', engines: [['jmespath', () => jmesPath('length(items)', doc)]] },
  ];
  process.stdout.write(`\nQuery languages: one call's latency, p50 / p95 (${SAMPLES} calls each; jq-web ${SAMPLES / 20})\n`);
  const verdicts = new Map<string, boolean>();
  for (const row of rows) {
    process.stdout.write(`  ${row.language.padEnd(9)} ${row.expr}\n`);
    const measured = row.engines.map(([name, work]) => [name, latency(work, name.startsWith('jq-web') ? SAMPLES / 20 : SAMPLES)] as const);
    for (const [name, { p50, p95 }] of measured) process.stdout.write(`    ${name.padEnd(24)} p50 ${us(p50).padStart(10)}   p95 ${us(p95).padStart(10)}\n`);
    const subset = measured.find(([name]) => name === 'subset')?.[1];
    const others = measured.filter(([name]) => name !== 'subset');
    if (subset && others.length > 0) verdicts.set(row.language, (verdicts.get(row.language) ?? true) && others.every(([, other]) => subset.p50 <= other.p50));
  }
  for (const [language, subsetFaster] of verdicts) {
    process.stdout.write(`  ${language}: ${subsetFaster ? 'the subset is faster on its forms: it stays for them' : 'REVIEW: the package is now as fast as the subset on its forms'}\n`);
  }
}
