#!/usr/bin/env node
// Which integration test files `.ci/run` runs a second time, against the machine's PostgreSQL (the first
// run uses the embedded engine, another major version: SQL that one accepts the other may refuse, answer
// in another order or word its errors differently).
//
// The rule: every integration test file runs there, except those listed in .ci/pg-server-skip.txt, each
// with its reason. A file that reaches the test database (the one TEST_DATABASE_URL names in that run:
// see reachesTestDatabase) or lives where SQL-engine-specific code lives cannot be listed, nor can a file
// that does not exist; `--check` (and scripts/pg-server-tests.test.ts, a unit test) fails then. What may
// be listed touches only what is the same in both runs: no database, servers it starts itself (`serve` on
// an embedded engine of its own data directory), or the machine's server at a fixed address.
// So the second run grows with every new test file and shrinks only by a listed, reasoned line.
//
// `node scripts/pg-server-tests.mjs` prints the files to run, one a line; `--check` prints what is wrong
// with the list (exit 1) or nothing; `--explain` prints why each file reaches the test database.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SKIP_LIST = '.ci/pg-server-skip.txt';

/** The integration project's files (vitest.config.ts `include`; the unit test holds the two equal). */
export const INTEGRATION_INCLUDE = ['server/**/*.int.test.ts', 'test/**/*.int.test.ts', 'bench/**/*.int.test.ts'];

/**
 * Where SQL-engine-specific code lives: migrations, the db platform, PostgREST, the view engine and its
 * SQL, catalog queries. A test file here always runs on both servers.
 */
export const SQL_DIRS = ['server/db/', 'server/platform/db/', 'server/postgrest/', 'server/features/views/', 'server/features/catalog/query/'];

/** The helpers that give a test the test database, or the app on it (every request then runs the stores' and SQL builders' SQL there). */
const TEST_DATABASE_HELPERS = ['test/app.ts', 'test/db.ts', 'test/global-db.ts'];

/** What in a file's own text reaches the test database. */
const TEST_DATABASE_TEXT = [
  { pattern: /\b(createTestApp|createTestDatabase)\s*\(/, says: 'makes a test database, or the app on one' },
  { pattern: /\btemplateUrl\b|\bTEST_DATABASE_URL\b/, says: 'connects to the test database' },
];

/** A test helper (not product code): its own reach counts for the files that import it. */
function isHelper(module) {
  return /^(test|e2e)\//.test(module) || /\/(tests|testing)\//.test(module) || /(^|\/)testing\.ts$/.test(module);
}

function walk(dir, out = []) {
  let entries;
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}

/** Every integration test file, relative to the root, sorted. */
export function integrationFiles() {
  const dirs = [...new Set(INTEGRATION_INCLUDE.map((glob) => glob.split('/')[0]))];
  return dirs
    .flatMap((dir) => walk(dir))
    .filter((file) => file.endsWith('.int.test.ts'))
    .sort();
}

/** The skip list: `{ file, reason, line }` per entry, and what is malformed in it. */
export function readSkipList(text) {
  const entries = [];
  const errors = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const at = line.indexOf(':');
    const file = (at < 0 ? line : line.slice(0, at)).trim();
    const reason = at < 0 ? '' : line.slice(at + 1).trim();
    if (reason.length < 20) errors.push(`${SKIP_LIST}:${index + 1}: ${file} needs its reason after a colon (why its result cannot differ between PostgreSQL servers)`);
    entries.push({ file, reason, line: index + 1 });
  });
  return { entries, errors };
}

function resolveImport(from, specifier) {
  let base;
  if (specifier.startsWith('@common/')) base = path.join('common', specifier.slice('@common/'.length));
  else if (specifier.startsWith('@web/')) base = path.join('web', specifier.slice('@web/'.length));
  else if (specifier.startsWith('.')) base = path.join(path.dirname(from), specifier);
  else return undefined;
  base = base.replace(/\.(m?js)$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}/index.ts`]) {
    if (/\.(ts|tsx|mjs)$/.test(candidate) && fs.existsSync(path.join(root, candidate))) return candidate.split(path.sep).join('/');
  }
  return base.split(path.sep).join('/');
}

/**
 * The modules a file imports at run time (static value imports, side-effect and dynamic imports), relative
 * to the root; `import type` and packages left out.
 */
export function importsOf(file, text = fs.readFileSync(path.join(root, file), 'utf8')) {
  const found = new Set();
  const pattern = /^\s*import\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*export\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1] || match[5]) continue;
    const module = resolveImport(file, match[2] ?? match[3] ?? match[4] ?? match[6]);
    if (module) found.add(module);
  }
  return [...found];
}

/**
 * Why a test file reaches the test database, or is SQL-engine code's own test (empty when neither): it
 * lives where such code lives, imports a helper that gives it the test database (directly, or through a
 * test helper of its own), or makes one or connects to it itself.
 */
export function reachesTestDatabase(file, text = fs.readFileSync(path.join(root, file), 'utf8'), seen = new Set([file])) {
  const reasons = [];
  const dir = SQL_DIRS.find((prefix) => file.startsWith(prefix));
  if (dir) reasons.push(`lives in ${dir}`);
  for (const { pattern, says } of TEST_DATABASE_TEXT) if (pattern.test(text)) reasons.push(says);
  for (const module of importsOf(file, text)) {
    if (TEST_DATABASE_HELPERS.includes(module)) {
      reasons.push(`imports ${module}`);
      continue;
    }
    if (!isHelper(module) || seen.has(module) || !fs.existsSync(path.join(root, module))) continue;
    seen.add(module);
    const through = reachesTestDatabase(module, fs.readFileSync(path.join(root, module), 'utf8'), seen);
    if (through.length > 0) reasons.push(`imports ${module}, which ${through[0]}`);
  }
  return reasons;
}

/** What is wrong with the skip list: malformed lines, files that do not exist, listed twice, or that reach the test database. */
export function checkSkipList(text = fs.readFileSync(path.join(root, SKIP_LIST), 'utf8'), files = integrationFiles()) {
  const { entries, errors } = readSkipList(text);
  const known = new Set(files);
  const seen = new Set();
  for (const entry of entries) {
    if (seen.has(entry.file)) errors.push(`${SKIP_LIST}:${entry.line}: ${entry.file} is listed twice`);
    seen.add(entry.file);
    if (!known.has(entry.file)) {
      errors.push(`${SKIP_LIST}:${entry.line}: ${entry.file} is not an integration test file (moved or removed? take its line out)`);
      continue;
    }
    const reaches = reachesTestDatabase(entry.file);
    if (reaches.length > 0) errors.push(`${SKIP_LIST}:${entry.line}: ${entry.file} reaches the test database or SQL-engine code (${reaches.join('; ')}): it must run against the machine's PostgreSQL`);
  }
  return errors;
}

/** The files the second run takes: every integration test file but the listed ones. */
export function selectedFiles(text = fs.readFileSync(path.join(root, SKIP_LIST), 'utf8'), files = integrationFiles()) {
  const skipped = new Set(readSkipList(text).entries.map((entry) => entry.file));
  return files.filter((file) => !skipped.has(file));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const errors = checkSkipList();
    for (const error of errors) process.stderr.write(`${error}\n`);
    process.exit(errors.length > 0 ? 1 : 0);
  }
  if (process.argv.includes('--explain')) {
    for (const file of integrationFiles()) process.stdout.write(`${file}: ${reachesTestDatabase(file).join('; ') || '-'}\n`);
    process.exit(0);
  }
  process.stdout.write(`${selectedFiles().join('\n')}\n`);
}
