import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The layer rule of the server (docs/ARCHITECTURE.md "Layers"): `common` ← `server/platform` (with
 * `server/postgrest`) ← `server/features/<area>` ← `server/app.ts` / `server/main.ts`.
 *
 * - A feature uses another feature only through its front door, `server/features/<b>/index.ts`.
 * - `server/platform` and `server/postgrest` import nothing from `server/features`; a feature's hooks reach
 *   them by registration when the app is composed.
 * - Tests (`*.test.ts`, files under `tests/`) and test helpers (files under `testing/`) may use their own
 *   feature's insides; of another feature they may use its front door and its `testing/` folders only.
 *
 * A top-level file `server/features/<name>.ts` is a one-file feature and its own front door;
 * `server/features/index.ts` is the list of features the app composes.
 */

export type Violation = { from: string; to: string; specifier: string; rule: 'feature-internal' | 'platform-to-feature' };

const FEATURES = 'server/features/';
const LOWER_LAYERS = ['server/platform/', 'server/postgrest/'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

/** `server/features/<area>/…` → area; `server/features/<name>.ts` → name; the features list → undefined. */
export function featureOf(file: string): string | undefined {
  if (!file.startsWith(FEATURES)) return undefined;
  const rest = file.slice(FEATURES.length);
  const slash = rest.indexOf('/');
  if (slash >= 0) return rest.slice(0, slash);
  if (rest === 'index.ts') return undefined;
  return rest.replace(/\.[cm]?tsx?$/, '');
}

/** A test or a test helper: may reach its own feature's insides and other features' `testing/` helpers. */
export function isTestFile(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || /(^|\/)(tests|testing)\//.test(file);
}

/** Whether `target` (a repository-relative file) is a way in that any other feature may use. */
function isFrontDoor(target: string, area: string): boolean {
  return target === `${FEATURES}${area}/index.ts` || target === `${FEATURES}${area}.ts`;
}

/** A test helper of the feature: any file under a `testing/` folder of it (`identity/oidc/testing/issuer.ts`). */
function isTestingHelper(target: string, area: string): boolean {
  return target.startsWith(`${FEATURES}${area}/`) && target.includes('/testing/');
}

/** The import and export-from specifiers of a file, dynamic `import()` included. */
export function specifiersOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((entry) => entry.fileName);
}

/** Resolves a relative specifier to a repository-relative file among `exists`; undefined for packages. */
export function resolveSpecifier(from: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  // `./x.js` written for `./x.ts`
  if (/\.[cm]?js$/.test(base)) candidates.push(base.replace(/\.([cm]?)js$/, '.$1ts'));
  return candidates.find(exists) ?? base;
}

/** The violations of one file's imports. */
export function fileViolations(file: string, source: string, exists: (file: string) => boolean): Violation[] {
  const violations: Violation[] = [];
  const fromArea = featureOf(file);
  const fromLower = LOWER_LAYERS.some((prefix) => file.startsWith(prefix));
  const test = isTestFile(file);
  for (const specifier of specifiersOf(source)) {
    const target = resolveSpecifier(file, specifier, exists);
    if (!target || !target.startsWith(FEATURES)) continue;
    if (fromLower) {
      violations.push({ from: file, to: target, specifier, rule: 'platform-to-feature' });
      continue;
    }
    if (!file.startsWith(FEATURES)) continue; // app, main, test/, bench/: the composition may use any front door
    const toArea = featureOf(target);
    if (toArea === undefined || toArea === fromArea) continue;
    if (isFrontDoor(target, toArea)) continue;
    if (test && isTestingHelper(target, toArea)) continue;
    violations.push({ from: file, to: target, specifier, rule: 'feature-internal' });
  }
  return violations;
}

function walk(dir: string, root: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, root, out);
    else if (/\.(m?ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
}

/** Every violation under `server/` of the repository at `root`. */
export function serverViolations(root: string): Violation[] {
  const files: string[] = [];
  walk(path.join(root, 'server'), root, files);
  const known = new Set(files);
  const exists = (file: string) => known.has(file);
  return files.flatMap((file) => fileViolations(file, fs.readFileSync(path.join(root, file), 'utf8'), exists));
}

export function describeViolation(violation: Violation): string {
  return violation.rule === 'platform-to-feature'
    ? `${violation.from} imports ${violation.to} ('${violation.specifier}'): platform and postgrest import no feature; register a hook instead`
    : `${violation.from} imports ${violation.to} ('${violation.specifier}'): use ${FEATURES}${featureOf(violation.to)}/index.ts or move it to server/platform/`;
}
