import { isRecord } from '../../platform/errors';

/** One step of a path: a key, an index, every child (`*`) or every descendant with a key (`..key`). */
export type PathStep = { key: string } | { index: number } | { wildcard: true } | { descend: string | true };

/** A JSONPath that this catalog does not understand; the message says where. */
export class JsonPathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`JSONPath ${JSON.stringify(path)}: ${reason}`);
    this.name = 'JsonPathError';
  }
}

const cache = new Map<string, PathStep[]>();

/**
 * Parses the JSONPath forms scrapers use: `$.a.b`, `.a.b` and `a.b`, `$['a key']`, `$.items[0]`,
 * `$.items[*]`, `$.*`, `$..name`. Filters (`[?(...)]`) and slices are refused by name: a CEL expression
 * does what they would.
 */
export function parseJsonPathSteps(path: string): PathStep[] {
  const cached = cache.get(path);
  if (cached) return cached;
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: PathStep[] = [];
  while (rest !== '') {
    let match: RegExpExecArray | null;
    if ((match = /^\.\.(\*|[A-Za-z_$@-][\w$@-]*)/.exec(rest))) {
      steps.push({ descend: match[1] === '*' ? true : (match[1] ?? '') });
    } else if ((match = /^\.?\*/.exec(rest)) || (match = /^\[\*\]/.exec(rest))) {
      steps.push({ wildcard: true });
    } else if ((match = /^\.?([A-Za-z_$@-][\w$@/-]*)/.exec(rest))) {
      steps.push({ key: match[1] ?? '' });
    } else if ((match = /^\[(-?\d+)\]/.exec(rest)) || (match = /^\.(\d+)/.exec(rest))) {
      steps.push({ index: Number(match[1]) });
    } else if ((match = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest)) || (match = /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest))) {
      steps.push({ key: (match[1] ?? '').replace(/\\(.)/g, '$1') });
    } else if (rest.startsWith('[?')) {
      throw new JsonPathError(path, 'filters ([?(...)]) are not supported; use a CEL expression (expr) instead');
    } else {
      throw new JsonPathError(path, `cannot read "${rest.slice(0, 20)}"`);
    }
    rest = rest.slice(match[0].length);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(path, steps);
  return steps;
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value)) return Object.values(value);
  return [];
}

function descendants(value: unknown, key: string | true, out: unknown[]): void {
  if (Array.isArray(value)) {
    for (const child of value) {
      if (key === true) out.push(child);
      descendants(child, key, out);
    }
  } else if (isRecord(value)) {
    for (const [name, child] of Object.entries(value)) {
      if (key === true || name === key) out.push(child);
      descendants(child, key, out);
    }
  }
}

/** Every value the path selects (an empty list when nothing matches). */
export function queryAll(document: unknown, path: string): unknown[] {
  let current: unknown[] = [document];
  for (const step of parseJsonPathSteps(path)) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('key' in step) {
        if (isRecord(value) && Object.hasOwn(value, step.key)) next.push(value[step.key]);
      } else if ('index' in step) {
        if (Array.isArray(value)) {
          const at = step.index < 0 ? value.length + step.index : step.index;
          if (at >= 0 && at < value.length) next.push(value[at]);
        }
      } else if ('wildcard' in step) {
        next.push(...children(value));
      } else {
        descendants(value, step.descend, next);
      }
    }
    current = next;
  }
  return current;
}

/** The first value the path selects, or undefined. */
export function queryOne(document: unknown, path: string): unknown {
  return queryAll(document, path)[0];
}

/** True when the text reads as a JSONPath rather than a literal value. */
export function looksLikeJsonPath(text: string): boolean {
  return text.startsWith('$.') || text.startsWith('$[') || text === '$' || text.startsWith('$..');
}

/**
 * Removes what the path selects from a copy of the document (transform.exclude). Only key and index steps
 * and wildcards are followed; the document itself is not changed.
 */
export function removePath(document: unknown, path: string): unknown {
  const steps = parseJsonPathSteps(path);
  if (steps.length === 0) return document;
  return removeAt(document, steps, 0);
}

function removeAt(value: unknown, steps: PathStep[], at: number): unknown {
  const step = steps[at];
  if (!step) return value;
  const last = at === steps.length - 1;
  if ('descend' in step) {
    // ..key: remove the key at every depth.
    const key = step.descend;
    const rest = steps.slice(at + 1);
    const walk = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(walk);
      if (!isRecord(node)) return node;
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(node)) {
        if (key === true || name === key) {
          if (rest.length === 0) continue;
          out[name] = removeAt(walk(child), rest, 0);
        } else out[name] = walk(child);
      }
      return out;
    };
    return walk(value);
  }
  if (Array.isArray(value)) {
    if ('wildcard' in step) return last ? [] : value.map((child) => removeAt(child, steps, at + 1));
    if ('index' in step) {
      const index = step.index < 0 ? value.length + step.index : step.index;
      if (index < 0 || index >= value.length) return value;
      return last ? value.filter((_, i) => i !== index) : value.map((child, i) => (i === index ? removeAt(child, steps, at + 1) : child));
    }
    return value;
  }
  if (isRecord(value)) {
    if ('wildcard' in step) {
      if (last) return {};
      return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, removeAt(child, steps, at + 1)]));
    }
    if ('key' in step && Object.hasOwn(value, step.key)) {
      if (last) {
        const { [step.key]: _removed, ...others } = value;
        return others;
      }
      return { ...value, [step.key]: removeAt(value[step.key], steps, at + 1) };
    }
  }
  return value;
}

/** Replaces what the path selects with `replacement(old)` in a copy of the document (transform.mask). */
export function replacePath(document: unknown, path: string, replacement: (old: unknown) => unknown): unknown {
  const steps = parseJsonPathSteps(path);
  const replaceAt = (value: unknown, at: number): unknown => {
    const step = steps[at];
    if (!step) return replacement(value);
    if ('descend' in step) {
      const walk = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(walk);
        if (!isRecord(node)) return node;
        return Object.fromEntries(Object.entries(node).map(([name, child]) => [name, step.descend === true || name === step.descend ? replaceAt(child, at + 1) : walk(child)]));
      };
      return walk(value);
    }
    if (Array.isArray(value)) {
      if ('wildcard' in step) return value.map((child) => replaceAt(child, at + 1));
      if ('index' in step) return value.map((child, i) => (i === (step.index < 0 ? value.length + step.index : step.index) ? replaceAt(child, at + 1) : child));
      return value;
    }
    if (isRecord(value)) {
      if ('wildcard' in step) return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, replaceAt(child, at + 1)]));
      if ('key' in step && Object.hasOwn(value, step.key)) return { ...value, [step.key]: replaceAt(value[step.key], at + 1) };
    }
    return value;
  };
  return steps.length === 0 ? replacement(document) : replaceAt(document, 0);
}
