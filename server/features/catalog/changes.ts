import { createHash } from 'node:crypto';
import { structuredPatch } from 'diff';
import { stringify as toYaml } from 'yaml';

/**
 * What a config change records (issue 5, spec §3 Config change): comparing the config a scraper saw last
 * with the one it sees now, both normalised so that key order and formatting never count as changes.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A deep copy as plain JSON with object keys in code-point order; undefined, functions and symbols are
 * dropped as JSON.stringify drops them, non-finite numbers become null, dates their ISO text.
 */
export function normalize(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : normalize(item)));
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const item: unknown = Reflect.get(value, key);
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      out[key] = normalize(item);
    }
    return out;
  }
  return null;
}

/** The SHA-256 of a normalised config's JSON: equal configs, equal fingerprints (the cheap "did it change"). */
export function fingerprint(normalized: Json): string {
  return createHash('sha256').update(JSON.stringify(normalized)).digest('hex');
}

function equal(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => equal(item, b[index]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]));
}

/**
 * The RFC 7386 merge patch that turns `before` into `after`, or undefined when they are equal. Removed
 * keys become null; arrays and values of another kind are replaced whole (as RFC 7386 has it, a null
 * inside `after` cannot be told from a removal).
 */
export function mergePatch(before: Json, after: Json): Json | undefined {
  if (equal(before, after)) return undefined;
  if (!isObject(before) || !isObject(after)) return after;
  const patch: { [key: string]: Json } = {};
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) patch[key] = null;
  }
  for (const key of Object.keys(after)) {
    const next = after[key] ?? null;
    if (!Object.hasOwn(before, key)) {
      patch[key] = next;
      continue;
    }
    const inner = mergePatch(before[key] ?? null, next);
    if (inner !== undefined) patch[key] = inner;
  }
  return patch;
}

/** Applies an RFC 7386 merge patch (section 2's algorithm). */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: { [key: string]: Json } = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key] ?? null, value);
  }
  return out;
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The paths whose values differ, in document order, at most `limit` of them: `spec.replicas`,
 * `spec.containers[0].image`, `metadata.labels["app.kubernetes.io/name"]`. A whole document replaced
 * is the path ''.
 */
export function changedPaths(before: Json, after: Json, limit = 100): string[] {
  const out: string[] = [];
  const walk = (a: Json | undefined, b: Json | undefined, path: string): void => {
    if (out.length >= limit || equal(a, b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let index = 0; index < Math.max(a.length, b.length); index += 1) walk(a[index], b[index], pathOf(path, index));
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[key], b[key], pathOf(path, key));
      return;
    }
    out.push(path);
  };
  walk(before, after, '');
  return out;
}

/** A config as the change's diff shows it: YAML, keys in normalised order. */
function asYaml(value: Json): string {
  return value === null ? '' : toYaml(value, { lineWidth: 0 });
}

/** The unified diff (three lines of context, no file headers) between the two configs as YAML. */
export function unifiedDiff(before: Json, after: Json): string {
  const patch = structuredPatch('before', 'after', asYaml(before), asYaml(after), undefined, undefined, { context: 3 });
  return patch.hunks
    .map((hunk) => [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n'))
    .join('\n');
}

/** "spec.replicas, spec.template.spec.containers[0].image and 3 more" */
export function summarizePaths(paths: readonly string[], shown = 3): string {
  if (paths.length === 0) return '';
  const named = paths.slice(0, shown).map((path) => path || '(the whole config)');
  return paths.length > shown ? `${named.join(', ')} and ${paths.length - shown} more` : named.join(', ');
}

export interface ComputedChange {
  /** Fingerprint of `after`. */
  fingerprint: string;
  /** Unified diff of the YAML. */
  diff: string;
  /** RFC 7386 merge patch from before to after. */
  patches: Json;
  /** Changed paths (at most 100). */
  paths: string[];
  summary: string;
}

/** What changed between two normalised configs, or undefined when nothing did. */
export function compareConfigs(before: Json, after: Json): ComputedChange | undefined {
  const patches = mergePatch(before, after);
  if (patches === undefined) return undefined;
  const paths = changedPaths(before, after);
  return { fingerprint: fingerprint(after), diff: unifiedDiff(before, after), patches, paths, summary: summarizePaths(paths) };
}
