import { isRecord } from '../../errors';
import { fail } from './values';

/**
 * A subset of JSONPath, shared by CEL's `jsonpath(path, value)` and the Go templates' `jsonpath`: `$` (optional), `.name`, `['name']`, `[n]` (negative
 * from the end), `[a:b]` slices, `[*]` / `.*` wildcards, `..name` recursive descent and `[a,b]` unions.
 * Filters (`[?(…)]`) and scripts are refused by name. One match is returned as is, several as a list,
 * none as null (gomplate returns an empty result the same way).
 */
type Step =
  | { t: 'key'; keys: string[] }
  | { t: 'index'; indexes: number[] }
  | { t: 'slice'; start?: number; end?: number }
  | { t: 'wildcard' }
  | { t: 'descend'; key: string | null };

const cache = new Map<string, Step[]>();

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

/** Every match of a JSONPath, in document order. */
export function jsonPathMatches(path: string, input: unknown): unknown[] {
  let current: unknown[] = [input];
  for (const step of parseJsonPath(path)) {
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
