import { fail } from './values';

/**
 * Semantic versions and Masterminds/semver constraints (the common forms: `=`, `!=`, `>`, `<`, `>=`,
 * `<=`, `~`, `^`, wildcards `1.2.x`, `,`/space for and, `||` for or), shared by CEL's `Semver` /
 * `SemverCompare` and the Go templates' `semver` / `semverCompare` / `strings.SemverCompare`.
 */

export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
  metadata: string;
  original: string;
}

export function parseVersion(text: string, fn: string): Version {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(text.trim());
  if (!match) return fail(`${fn}: "${text}" is not a semantic version`);
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0), prerelease: match[4] ?? '', metadata: match[5] ?? '', original: text };
}

export function compareVersions(a: Version, b: Version): number {
  const diff = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (diff !== 0) return diff;
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === '') return 1;
  if (b.prerelease === '') return -1;
  const left = a.prerelease.split('.');
  const right = b.prerelease.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    if (nx) return -1;
    if (ny) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

export function satisfies(constraint: string, version: Version): boolean {
  return constraint.split('||').some((group) =>
    group
      .trim()
      .split(/\s*,\s*|\s+(?=[<>=!~^])/)
      .filter((part) => part !== '')
      .every((part) => {
        const match = /^(=|!=|>=|<=|>|<|~|\^)?\s*v?([\dxX*]+(?:\.[\dxX*]+)?(?:\.[\dxX*]+)?(?:-[0-9A-Za-z.-]+)?)$/.exec(part.trim());
        if (!match) return fail(`SemverCompare: "${part}" is not a constraint`);
        const op = match[1] ?? '=';
        const text = match[2] ?? '';
        const pieces = text.split('-')[0]?.split('.') ?? [];
        const wild = pieces.findIndex((piece) => /^[xX*]$/.test(piece));
        const given = wild >= 0 ? wild : pieces.length;
        const bound = parseVersion(text.replace(/[xX*]/g, '0'), 'SemverCompare');
        const cmp = compareVersions(version, bound);
        const upper = (level: number): Version => ({ ...bound, prerelease: '', major: level === 0 ? bound.major + 1 : bound.major, minor: level === 1 ? bound.minor + 1 : level === 0 ? 0 : bound.minor, patch: 0 });
        const within = (level: number) => cmp >= 0 && compareVersions(version, upper(level)) < 0;
        if (op === '=' && given < 3) return given === 0 ? true : within(given - 1);
        switch (op) {
          case '=':
            return cmp === 0;
          case '!=':
            return cmp !== 0;
          case '>':
            return cmp > 0;
          case '<':
            return cmp < 0;
          case '>=':
            return cmp >= 0;
          case '<=':
            return cmp <= 0;
          case '~':
            return within(given >= 2 ? 1 : 0);
          default: // ^
            return within(bound.major > 0 ? 0 : bound.minor > 0 || given < 3 ? 1 : 2);
        }
      }),
  );
}

/** A version as gomplate's SemverMap gives it: every part as text. */
export function semverMap(text: string, fn: string): Record<string, string> {
  const v = parseVersion(text, fn);
  return { major: String(v.major), minor: String(v.minor), patch: String(v.patch), prerelease: v.prerelease, metadata: v.metadata, original: v.original };
}

/** `constraint` (Masterminds syntax) holds for `version`. */
export function semverSatisfies(constraint: string, version: string, fn: string): boolean {
  return satisfies(constraint, parseVersion(version, fn));
}
