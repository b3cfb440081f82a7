import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every production dependency actually installed (the transitive closure of package.json `dependencies`,
 * with the optional and peer dependencies that are installed) is under an open-source licence approved by
 * the OSI, read from the package's own metadata (`license`, or the older `licenses` list). DESIGN §9:
 * nothing of a project whose licence is not open is part of this one. A package missing from the list, or
 * whose metadata names no licence, fails the test by name; the fix is to replace the package, or (when its
 * metadata is wrong but its files say an OSI licence) to name that exact version below with the reason.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * SPDX ids of OSI-approved licences (opensource.org/licenses) that this Apache-2.0 project accepts in what it
 * ships. Permissive licences, and MPL-2.0 (file-level copyleft: MPL files stay MPL, the rest of the work keeps
 * its own licence, and MPL-2.0 is compatible with Apache-2.0).
 *
 * Left out on purpose:
 * - GPL, LGPL and AGPL are OSI-approved, but their terms reach the combined work (GPL-2.0-only cannot be
 *   combined with Apache-2.0 at all); one appearing here is a decision to take, not a line to add.
 * - CC0-1.0 is a public-domain dedication the OSI never approved (it withholds a patent licence), and
 *   CC-BY-4.0 (caniuse-lite's data, a build tool's) is a content licence, not a software one. Neither is in
 *   what the console ships today; a data package under one would be named below with its reason.
 * - WTFPL and other licences the OSI has not approved.
 */
const OSI_APPROVED = new Set([
  '0BSD',
  'Apache-2.0',
  'Artistic-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'BSL-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'MPL-2.0',
  'PostgreSQL',
  'Python-2.0',
  'Unlicense',
  'UPL-1.0',
  'Zlib',
]);

/** Older or loose spellings in package metadata, read as the SPDX id they mean. */
const SPELLINGS: Record<string, string> = {
  'Apache 2.0': 'Apache-2.0',
  'Apache License 2.0': 'Apache-2.0',
  'Apache-2': 'Apache-2.0',
  BSD: 'BSD-3-Clause',
  'MIT/X11': 'MIT',
};

/**
 * Exact versions whose metadata names no licence (or a wrong one) while their own files name an OSI licence,
 * each with where it says so. A new version of one of these is checked again.
 */
const KNOWN: Record<string, { license: string; why: string }> = {
  'precond@0.2.3': {
    license: 'MIT',
    why: 'package.json has no license field; index.js and lib/*.js open with "Licensed under the MIT license" and the README says MIT (a dependency of backoff, of ldapjs)',
  },
};

interface Installed {
  name: string;
  version: string;
  dir: string;
  license: unknown;
  licenses: unknown;
  dependencies: string[];
  optional: string[];
}

function readPackage(file: string): Installed {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const keys = (value: unknown) => (value && typeof value === 'object' ? Object.keys(value) : []);
  return {
    name: String(json.name),
    version: String(json.version),
    dir: path.dirname(file),
    license: json.license,
    licenses: json.licenses,
    dependencies: keys(json.dependencies),
    optional: [...keys(json.optionalDependencies), ...keys(json.peerDependencies)],
  };
}

/** Node's lookup: `<dir>/node_modules/<name>`, then each parent's, up to the project root. */
function resolvePackage(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    if (dir === ROOT || path.dirname(dir) === dir) return undefined;
    dir = path.dirname(dir);
    if (path.basename(dir) === 'node_modules') dir = path.dirname(dir);
    else if (path.basename(path.dirname(dir)) === 'node_modules' && path.basename(dir).startsWith('@')) dir = path.dirname(path.dirname(dir));
  }
}

/** The installed production closure; a required dependency that is not installed is reported. */
function productionClosure(): { packages: Installed[]; missing: string[] } {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const seen = new Map<string, Installed>();
  const missing: string[] = [];
  const queue: Array<{ from: string; name: string; required: boolean; by: string }> = Object.keys(root.dependencies ?? {}).map((name) => ({ from: ROOT, name, required: true, by: 'package.json' }));
  while (queue.length > 0) {
    const next = queue.shift()!;
    const file = resolvePackage(next.from, next.name);
    if (!file) {
      if (next.required) missing.push(`${next.name} (required by ${next.by})`);
      continue;
    }
    if (seen.has(file)) continue;
    const installed = readPackage(file);
    seen.set(file, installed);
    const by = `${installed.name}@${installed.version}`;
    for (const name of installed.dependencies) queue.push({ from: installed.dir, name, required: true, by });
    for (const name of installed.optional) queue.push({ from: installed.dir, name, required: false, by });
  }
  return { packages: [...seen.values()], missing };
}

type Expression = { id: string } | { op: 'AND' | 'OR'; left: Expression; right: Expression };

/** An SPDX license expression: ids (with `+` and `WITH exception`), AND, OR and parentheses; AND binds tighter. */
function parseSpdx(text: string): Expression {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const primary = (): Expression => {
    const token = tokens[at++];
    if (token === undefined) throw new Error(`"${text}" ends too early`);
    if (token === '(') {
      const inner = or();
      if (tokens[at++] !== ')') throw new Error(`"${text}" has an unclosed (`);
      return inner;
    }
    if (token === ')' || /^(AND|OR|WITH)$/i.test(token)) throw new Error(`"${text}" has ${token} where a licence id belongs`);
    let id = token;
    if (peek()?.toUpperCase() === 'WITH') {
      at += 1;
      const exception = tokens[at++];
      if (!exception) throw new Error(`"${text}" has WITH without an exception`);
      id = `${id} WITH ${exception}`;
    }
    return { id };
  };
  const and = (): Expression => {
    let left = primary();
    while (peek()?.toUpperCase() === 'AND') {
      at += 1;
      left = { op: 'AND', left, right: primary() };
    }
    return left;
  };
  const or = (): Expression => {
    let left = and();
    while (peek()?.toUpperCase() === 'OR') {
      at += 1;
      left = { op: 'OR', left, right: and() };
    }
    return left;
  };
  const expression = or();
  if (at !== tokens.length) throw new Error(`"${text}" has more after the expression: ${tokens.slice(at).join(' ')}`);
  return expression;
}

/**
 * Whether the expression can be satisfied with accepted licences: one side of an OR, both of an AND. An
 * exception (`WITH …`) only adds permissions, so it is judged by its licence; `+` (or later) by the id.
 */
function acceptable(expression: Expression): boolean {
  if ('id' in expression) {
    const id = expression.id.split(' WITH ')[0]!.replace(/\+$/, '');
    return OSI_APPROVED.has(SPELLINGS[id] ?? id);
  }
  return expression.op === 'OR' ? acceptable(expression.left) || acceptable(expression.right) : acceptable(expression.left) && acceptable(expression.right);
}

/** The licence metadata as one SPDX expression: a string, `{type}`, or the older `licenses` list (any of). */
function declared(pkg: Installed): string | undefined {
  const one = (value: unknown): string | undefined => {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') return (value as { type: string }).type.trim();
    return undefined;
  };
  const direct = one(pkg.license);
  if (direct) return direct;
  const list = (Array.isArray(pkg.licenses) ? pkg.licenses : pkg.licenses ? [pkg.licenses] : []).map(one).filter((id): id is string => Boolean(id));
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list.map((id) => `(${id})`).join(' OR ');
}

/** Why a package is not accepted, or undefined when it is. */
function problem(pkg: Installed): string | undefined {
  const key = `${pkg.name}@${pkg.version}`;
  const written = declared(pkg) ?? KNOWN[key]?.license;
  const text = written && (SPELLINGS[written] ?? written);
  if (!text) return `${key} (${path.relative(ROOT, pkg.dir)}): no licence in its package.json`;
  if (/^SEE LICEN[CS]E IN /i.test(text) || /^UNLICENSED$/i.test(text)) return `${key}: "${text}" is not an open-source licence id`;
  try {
    return acceptable(parseSpdx(text)) ? undefined : `${key}: "${text}" is not on the list of OSI-approved licences accepted here`;
  } catch (error) {
    return `${key}: the licence "${text}" is not an SPDX expression (${(error as Error).message})`;
  }
}

describe('licences of the production dependencies', () => {
  it('reads SPDX expressions', () => {
    expect(acceptable(parseSpdx('MIT'))).toBe(true);
    expect(acceptable(parseSpdx('(MIT OR Apache-2.0)'))).toBe(true);
    expect(acceptable(parseSpdx('MIT AND ISC'))).toBe(true);
    expect(acceptable(parseSpdx('(MIT OR GPL-3.0-or-later) AND BSD-3-Clause'))).toBe(true);
    expect(acceptable(parseSpdx('MIT AND CC-BY-4.0'))).toBe(false);
    expect(acceptable(parseSpdx('SSPL-1.0 OR BUSL-1.1'))).toBe(false);
    expect(acceptable(parseSpdx('Apache-2.0 WITH LLVM-exception'))).toBe(true);
    expect(acceptable(parseSpdx('MIT/X11'))).toBe(true);
    expect(acceptable(parseSpdx(SPELLINGS['Apache 2.0']!))).toBe(true);
    expect(() => parseSpdx('(MIT OR')).toThrow(/ends too early|unclosed/);
    expect(() => parseSpdx('MIT Apache-2.0')).toThrow(/more after the expression/);
  });

  it('every installed production dependency is under an OSI-approved licence', () => {
    const { packages, missing } = productionClosure();
    expect(missing, 'production dependencies that are not installed (run npm ci)').toEqual([]);
    expect(packages.length).toBeGreaterThan(50);
    const problems = [...new Set(packages.map(problem).filter((line): line is string => Boolean(line)))].sort();
    expect(problems).toEqual([]);
    // An entry for a version no longer installed is stale: remove it so that it cannot excuse another.
    const installed = new Set(packages.map((pkg) => `${pkg.name}@${pkg.version}`));
    expect(Object.keys(KNOWN).filter((key) => !installed.has(key))).toEqual([]);
  });
});
