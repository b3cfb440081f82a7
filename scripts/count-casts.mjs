#!/usr/bin/env node
// Counts the type escapes in non-test code (issue 39 §5): `as` casts (AsExpression and the old
// `<T>value` TypeAssertion nodes; `as const` is not a cast and is left out) and `any` keywords, in the
// git-tracked .ts/.tsx files under server/, web/ and common/ — test files (*.test.*), tests/ and testing/
// folders and declaration files (.d.ts) excluded. `x as unknown as T` counts twice: it is two casts.
//
// `node scripts/count-casts.mjs` prints both counts and the files with the most casts; `--top N` sets how
// many files (default 15), `--json` prints {casts, anys, files: [{file, casts, anys}]} instead.
// scripts/count-casts.test.ts (a unit test) holds the cast count under a ceiling, so it can only go down.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOTS = ['server', 'web', 'common'];

/** Whether a repository path is non-test source the count covers. */
export function counted(file) {
  if (!/\.tsx?$/.test(file) || file.endsWith('.d.ts')) return false;
  if (!ROOTS.some((dir) => file.startsWith(`${dir}/`))) return false;
  if (/\.test\.[^/]+$/.test(file)) return false;
  return !file.split('/').slice(0, -1).some((part) => part === 'tests' || part === 'testing');
}

/** The git-tracked files the count covers, sorted. */
export function sourceFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--', ...ROOTS], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split('\0').filter((file) => file && counted(file) && fs.existsSync(path.join(root, file))).sort();
}

function isConstAssertion(node) {
  const type = node.type;
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'const' && !type.typeArguments;
}

/** The casts and `any` keywords in one file's text. */
export function countText(text, fileName = 'file.ts') {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  let casts = 0;
  let anys = 0;
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConstAssertion(node)) casts += 1;
    else if (node.kind === ts.SyntaxKind.AnyKeyword) anys += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { casts, anys };
}

/** Counts over every covered file: totals and per file, most casts first. */
export function countAll(files = sourceFiles()) {
  const perFile = files.map((file) => ({ file, ...countText(fs.readFileSync(path.join(root, file), 'utf8'), file) }));
  perFile.sort((a, b) => b.casts - a.casts || b.anys - a.anys || a.file.localeCompare(b.file));
  return {
    casts: perFile.reduce((sum, entry) => sum + entry.casts, 0),
    anys: perFile.reduce((sum, entry) => sum + entry.anys, 0),
    files: perFile,
  };
}

function main(argv) {
  const topAt = argv.indexOf('--top');
  const top = topAt >= 0 ? Number(argv[topAt + 1]) : 15;
  const result = countAll();
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ ...result, files: result.files.filter((entry) => entry.casts || entry.anys) }, null, 2)}\n`);
    return;
  }
  const lines = [`${result.casts} as casts, ${result.anys} any in ${result.files.length} non-test files (${ROOTS.join('/, ')}/)`];
  for (const entry of result.files.slice(0, top).filter((e) => e.casts > 0)) lines.push(`${String(entry.casts).padStart(4)} casts ${String(entry.anys).padStart(3)} any  ${entry.file}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
