import { Environment } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { isRecord, messageOf } from '../errors';
import { ExpressionError } from './errors';
import { formatDuration, parseDuration } from '../units';

/**
 * Variables are whatever a check type exposes (dyn), and a list or map literal may mix value types, as in
 * canary-checker's transforms: [{'name': 'api', 'pass': true}].
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false }).registerFunction(
  // canary-checker's Duration('7d'): Go durations plus days and weeks, as in `sslAge > Duration('7d')`.
  'Duration(string): google.protobuf.Duration',
  (text: string) => {
    const ms = parseDuration(text);
    if (ms === undefined) throw new Error(`Duration("${text}"): not a duration (e.g. 90s, 15m, 2h, 7d)`);
    return Duration.fromMilliseconds(ms);
  },
);

/**
 * A duration variable (http's `sslAge` and `elapsed`, like canary-checker's Go durations): compares with
 * `Duration('7d')` or `duration('168h')` and prints as 3d4h in templates.
 */
export function celDuration(ms: number): Duration {
  return Duration.fromMilliseconds(Math.round(ms));
}

type Compiled = ReturnType<Environment['parse']>;
const compiled = new Map<string, Compiled | Error>();
const CACHE_LIMIT = 5000;

function compile(where: string, expression: string): Compiled {
  let entry = compiled.get(expression);
  if (!entry) {
    try {
      entry = environment.parse(expression);
    } catch (error) {
      entry = new Error(firstLine(messageOf(error)));
    }
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(expression, entry);
  }
  if (entry instanceof Error) throw new ExpressionError(where, expression, `does not parse: ${entry.message}`);
  return entry;
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}

/** CEL integers come back as bigint; the console speaks JSON numbers. */
function toPlain(value: unknown): unknown {
  if (value instanceof Duration) return formatDuration(value.valueOf());
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([key, item]) => [String(key), toPlain(item)]));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]));
  return value;
}

/**
 * Whole numbers become CEL ints so that `code >= 200 && code < 300` and `size / 1024` work as written;
 * fractions stay doubles. `json` keeps its numbers as doubles, as JSON numbers are in canary-checker.
 */
function toCel(value: unknown, depth: number): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => toCel(item, depth + 1));
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = depth === 0 && key === 'json' ? item : toCel(item, depth + 1);
    return out;
  }
  return value;
}

function celVariables(variables: Record<string, unknown>): Record<string, unknown> {
  const out = toCel(variables, 0);
  return isRecord(out) ? out : variables;
}

/** Evaluates a CEL expression over the check's variables. */
export function evaluateCel(where: string, expression: string, variables: Record<string, unknown>): unknown {
  const program = compile(where, expression);
  try {
    return toPlain(program(celVariables(variables)));
  } catch (error) {
    throw new ExpressionError(where, expression, firstLine(messageOf(error)));
  }
}

/** A `test.expr`: must be true or false. */
export function evaluateTest(where: string, expression: string, variables: Record<string, unknown>): boolean {
  const value = evaluateCel(where, expression, variables);
  if (typeof value !== 'boolean') throw new ExpressionError(where, expression, `returned ${JSON.stringify(value)}, not true or false`);
  return value;
}
