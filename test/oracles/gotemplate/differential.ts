// The differential test of the Go template engine against Go's own text/template: cases.json holds what Go
// answered for each case (written by `go run .` here); this compares the engine's answers with it. Used by
// the unit test (server/platform/expressions/template/template.test.ts) and bench/expressions.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ExpressionError } from '../../../server/platform/expressions/errors';
import { renderTemplate } from '../../../server/platform/expressions/template/index';

interface OracleCase {
  name: string;
  template: string;
  data: string;
  output?: string;
  error?: string;
  line?: number;
  column?: number;
}

const oracle = JSON.parse(readFileSync(path.join(import.meta.dirname, 'cases.json'), 'utf8')) as {
  go: string;
  datasets: Record<string, string>;
  cases: OracleCase[];
};

/** Where the Go that wrote the fixture (1.19, Debian's) is older than canary-checker's: its answers are newer Go's. */
const newerGo: Record<string, Partial<OracleCase>> = {
  // Go 1.23 reads {{else with}} as {{else}}{{with}}.
  'else with': { output: 'api', error: undefined },
};

type Verdict = { agrees: true } | { agrees: false; expected: string; got: string };

function judge(item: OracleCase): Verdict {
  const expected = { ...item, ...newerGo[item.name] };
  const input = item.data === '' ? undefined : (JSON.parse(oracle.datasets[item.data] ?? 'null') as unknown);
  let got: string;
  try {
    const output = renderTemplate('display.template', item.template, input);
    got = `output ${JSON.stringify(output)}`;
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    const column = expected.column === undefined ? '' : `:${error.position?.column}`;
    got = `error ${error.position?.line}${column} ${error.reason}`;
  }
  const want = expected.error === undefined ? `output ${JSON.stringify(expected.output ?? '')}` : `error ${expected.line}${expected.column === undefined ? '' : `:${expected.column}`} ${expected.error}`;
  return got === want ? { agrees: true } : { agrees: false, expected: want, got };
}

/** Where this engine knowingly answers otherwise than Go, and why. */
export const KNOWN_DIFFERENCES: Record<string, string> = {
  'complex number': 'complex constants ({{1i}}) are refused: no JSON value is complex, and no template uses them',
  'eq int float mismatch':
    "an int and a float compare by value: canary-checker's data carry Go ints (code, exitCode) where ours are JS numbers, so {{eq .code 200}} must work",
  'gt float int literal':
    "an int and a float order by value, as they compare (eq int float mismatch): canary-checker's .code is a Go int, so {{gt .code 399}} works there and must here",
  'index string byte type':
    'a byte of a string is a uint8 in Go and an int here (the engine has no unsigned kinds): it prints the same number, only %T names another type',
};

export interface Differential {
  go: string;
  total: number;
  agreeing: number;
  disagreements: Array<{ name: string; template: string; expected: string; got: string }>;
}

/** Every case through the engine, compared with Go's answer. */
export function runDifferential(): Differential {
  const disagreements: Differential['disagreements'] = [];
  for (const item of oracle.cases) {
    const verdict = judge(item);
    if (!verdict.agrees) disagreements.push({ name: item.name, template: item.template, expected: verdict.expected, got: verdict.got });
  }
  return { go: oracle.go, total: oracle.cases.length, agreeing: oracle.cases.length - disagreements.length, disagreements };
}
