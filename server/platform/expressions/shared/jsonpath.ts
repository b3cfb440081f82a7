import { JSONPath } from 'jsonpath-plus';
import { isRecord } from '../../errors';
import { fail } from './values';

/**
 * JSONPath, shared by CEL's `jsonpath(path, value)`, the Go templates' `jsonpath` and secret references. Two
 * engines, one answer per path:
 *
 * - a hand-written subset for the common forms, about ten times faster than the package on them (bench/
 *   expressions.ts): `$` (optional), `.name`, `['name']`, `[n]` (negative from the end), `[a:b]` slices,
 *   `[*]` / `.*` wildcards, `..name` recursive descent and `[a,b]` unions;
 * - every other path (filters `[?(@.port > 80)]`, script indexes `[(@.length-1)]`, …) goes to jsonpath-plus,
 *   with its safe evaluator (no JavaScript is run: `@.constructor…` fails).
 *
 * One match is returned as is, several as a list, none as null (gomplate returns an empty result the same way).
 */
type Step =
  | { t: 'key'; keys: string[] }
  | { t: 'index'; indexes: number[] }
  | { t: 'slice'; start?: number; end?: number }
  | { t: 'wildcard' }
  | { t: 'descend'; key: string | null };

const cache = new Map<string, Step[]>();

/** The subset's steps of a path; throws when the path is outside the subset. */
export function parseJsonPath(path: string): Step[] {
  const cached = cache.get(path);
  if (cached) return cached;
  const steps: Step[] = [];
  let text = path.trim();
  if (text.startsWith('$')) text = text.slice(1);
  else if (text !== '' && !text.startsWith('.') && !text.startsWith('[')) text = `.${text}`;
  let i = 0;
  const name = /[A-Za-z0-9_\-$]+/y;
  while (i < text.length) {
    if (text.startsWith('..', i)) {
      i += 2;
      if (text[i] === '*') {
        i++;
        steps.push({ t: 'descend', key: null });
        continue;
      }
      name.lastIndex = i;
      const match = name.exec(text);
      if (!match) return fail(`jsonpath: expected a name after '..' in ${JSON.stringify(path)}`);
      i = name.lastIndex;
      steps.push({ t: 'descend', key: match[0] });
    } else if (text[i] === '.') {
      i++;
      if (text[i] === '*') {
        i++;
        steps.push({ t: 'wildcard' });
        continue;
      }
      name.lastIndex = i;
      const match = name.exec(text);
      if (!match) return fail(`jsonpath: expected a name after '.' in ${JSON.stringify(path)}`);
      i = name.lastIndex;
      steps.push({ t: 'key', keys: [match[0]] });
    } else if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) return fail(`jsonpath: unclosed '[' in ${JSON.stringify(path)}`);
      const inner = text.slice(i + 1, close).trim();
      i = close + 1;
      if (inner.startsWith('?') || inner.startsWith('(')) return fail('jsonpath: filter and script expressions ([?(…)]) are not supported yet');
      if (inner === '*') steps.push({ t: 'wildcard' });
      else if (/^(-?\d*):(-?\d*)$/.test(inner)) {
        const [start, end] = inner.split(':');
        steps.push({ t: 'slice', start: start ? Number(start) : undefined, end: end ? Number(end) : undefined });
      } else {
        const parts = inner.split(',').map((part) => part.trim());
        if (parts.every((part) => /^-?\d+$/.test(part))) steps.push({ t: 'index', indexes: parts.map(Number) });
        else if (parts.every((part) => /^(['"]).*\1$/.test(part))) steps.push({ t: 'key', keys: parts.map((part) => part.slice(1, -1)) });
        else return fail(`jsonpath: '[${inner}]' is not supported yet`);
      }
    } else {
      return fail(`jsonpath: unexpected '${text[i]}' in ${JSON.stringify(path)}`);
    }
  }
  if (cache.size > 1000) cache.clear();
  cache.set(path, steps);
  return steps;
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return [...value.values()];
  if (isRecord(value)) return Object.values(value);
  return [];
}

function field(value: unknown, key: string): unknown[] {
  if (value instanceof Map) return value.has(key) ? [value.get(key)] : [];
  if (isRecord(value) && key in value) return [value[key]];
  return [];
}

function descend(value: unknown, key: string | null, out: unknown[]): void {
  if (key === null) out.push(...children(value));
  else out.push(...field(value, key));
  for (const child of children(value)) descend(child, key, out);
}

/** The subset's steps, or undefined when the path is for the package. */
function subsetSteps(path: string): Step[] | undefined {
  try {
    return parseJsonPath(path);
  } catch {
    return undefined;
  }
}

/**
 * Throws (naming the problem) when neither engine reads the path: for refusing a literal path when an
 * expression compiles.
 */
export function checkJsonPath(path: string): void {
  if (subsetSteps(path)) return;
  let segments: string[];
  try {
    segments = JSONPath.toPathArray(path);
  } catch (error) {
    fail(`jsonpath: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]} in ${JSON.stringify(path)}`);
  }
  // a filter or script is parsed only when it runs: run each once, over one empty object
  for (const segment of segments) if (segment.startsWith('?(') || segment.startsWith('(')) packageMatches(`$[${segment}]`, [{}], path);
}

/** Maps (CEL's) as objects, for the package; everything else as it is. */
function plainMaps(value: unknown, depth = 0): unknown {
  if (depth > 100) return value;
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), plainMaps(v, depth + 1)]));
  if (Array.isArray(value)) return value.some((item) => item instanceof Map || Array.isArray(item) || isRecord(item)) ? value.map((item) => plainMaps(item, depth + 1)) : value;
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainMaps(v, depth + 1);
    return out;
  }
  return value;
}

/**
 * The package's matches. A filter that fails on an element (`@.spec.port > 80` where there is no spec) does
 * not match it, as in ojg, gomplate's JSONPath; a filter that does not parse is an error.
 */
function packageMatches(path: string, input: unknown, shown = path): unknown[] {
  const json = plainMaps(input);
  try {
    const result: unknown = JSONPath({ path, json: json as object, eval: 'safe', ignoreEvalErrors: true, wrap: true, resultType: 'value' });
    return Array.isArray(result) ? result : [];
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/^jsonPath: /, '');
    return fail(`jsonpath: ${message.split('\n')[0]} in ${JSON.stringify(shown)}`);
  }
}

const checked = new Set<string>();

/** Every match of a JSONPath, in document order. */
export function jsonPathMatches(path: string, input: unknown): unknown[] {
  const steps = subsetSteps(path);
  if (!steps) {
    if (!checked.has(path)) {
      checkJsonPath(path); // a filter that does not parse fails even where nothing would run it
      if (checked.size > 1000) checked.clear();
      checked.add(path);
    }
    return packageMatches(path, input);
  }
  let current: unknown[] = [input];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      switch (step.t) {
        case 'key':
          for (const key of step.keys) next.push(...field(value, key));
          break;
        case 'index':
          if (Array.isArray(value)) for (const index of step.indexes) {
            const item = value[index < 0 ? value.length + index : index];
            if (item !== undefined) next.push(item);
          }
          break;
        case 'slice':
          if (Array.isArray(value)) {
            const start = step.start === undefined ? 0 : step.start < 0 ? Math.max(0, value.length + step.start) : step.start;
            const end = step.end === undefined ? value.length : step.end < 0 ? value.length + step.end : step.end;
            next.push(...value.slice(start, end));
          }
          break;
        case 'wildcard':
          next.push(...children(value));
          break;
        case 'descend':
          descend(value, step.key, next);
          break;
      }
    }
    current = next;
  }
  return current;
}

/** One match as is, several as a list, none as null. */
export function jsonPath(path: string, input: unknown): unknown {
  const current = jsonPathMatches(path, input);
  if (current.length === 0) return null;
  if (current.length === 1) return current[0] ?? null;
  return current;
}
