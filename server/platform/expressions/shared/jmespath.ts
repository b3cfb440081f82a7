import jmespath from 'jmespath';
import { isRecord } from '../../errors';
import { fail } from './values';

/**
 * JMESPath (jmespath.org), shared by CEL's `jmespath(query, value)` and the Go templates' `jmespath query
 * value`: the `jmespath` package, the JavaScript implementation of the same specification as go-jmespath,
 * which flanksource/gomplate runs. As gomplate's coll.JMESPath: the value is read as JSON data (a text value
 * holding a JSON object is that object), and a null result is "".
 */

/** The package's parser (exported by it; its type definitions name only `search`). */
const compile = (jmespath as unknown as { compile(query: string): unknown }).compile;

/** Throws, naming the problem, when the query does not parse: for refusing a literal query at compile time. */
export function checkJmesPath(query: string): void {
  try {
    compile(query);
  } catch (error) {
    fail(`jmespath: ${messageOf(error)} in ${JSON.stringify(query)}`);
  }
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/** An engine's value as JSON data (JSON's round trip, as gomplate's CEL binding makes it): ints as numbers, maps as objects. */
function asJson(value: unknown, depth = 0): unknown {
  if (depth > 100) return fail('jmespath: the value is nested too deeply');
  if (value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((item) => asJson(item, depth + 1));
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), asJson(v, depth + 1)]));
  if (isRecord(value)) {
    if (Object.getPrototypeOf(value) !== Object.prototype) {
      const primitive: unknown = value.valueOf();
      if (typeof primitive !== 'object') return asJson(primitive, depth + 1);
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = asJson(item, depth + 1);
    return out;
  }
  return value;
}

/** A text value holding a JSON object is that object (gomplate); any other text stays text. */
function input(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) && !Array.isArray(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** Runs a query; a null result (or gomplate's NULL_VALUE) is "". */
export function jmesPath(query: string, value: unknown): unknown {
  let result: unknown;
  try {
    result = jmespath.search(asJson(input(value)) as never, query);
  } catch (error) {
    return fail(`jmespath: ${messageOf(error)} in ${JSON.stringify(query)}`);
  }
  return result === null || result === undefined || result === 'NULL_VALUE' ? '' : result;
}
