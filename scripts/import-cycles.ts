import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Import circles in web/, server/ and common/ (issue 39 §2; docs/ARCHITECTURE.md "No import circles").
 *
 * Every edge a module graph tool such as madge draws counts: `import` (type-only included), `export … from`,
 * `import x = require()` and `import('…')` with a literal specifier (a lazy page or tab is still a way back);
 * Vite's `import.meta.glob` (how web/app/routes.ts finds the features' route modules) is not an import.
 * Specifiers resolve as tsconfig.json does: relative paths and the aliases `@common/*` and `@web/*`, to
 * `.ts`/`.tsx` files or a folder's `index`; packages are not followed.
 *
 * `npx tsx scripts/import-cycles.ts` prints each circle; scripts/import-cycles.test.ts fails on any.
 */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOTS = ['web', 'server', 'common'] as const;

const ALIASES: Readonly<Record<string, string>> = { '@common/': 'common/', '@web/': 'web/' };
const EXTENSIONS = ['.ts', '.tsx'];

/**
 * The module specifiers a file imports, in source order (type-only imports and literal `import()` included).
 * The compiler's pre-processing scanner reads them without building a syntax tree (about 5 times faster than
 * a full parse, with the same specifiers on every file of the repository).
 */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
}

/**
 * The repository file `specifier` names from `from`, among `files`; undefined for a package or a file
 * outside the set (a stylesheet, an asset).
 */
export function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  let base: string | undefined;
  if (specifier.startsWith('./') || specifier.startsWith('../')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else {
    const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
    if (alias !== undefined) base = `${ALIASES[alias]}${specifier.slice(alias.length)}`;
  }
  if (base === undefined) return undefined;
  const stem = base.replace(/\.[cm]?js$/, '');
  const candidates = [base, ...EXTENSIONS.map((ext) => `${stem}${ext}`), ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  return candidates.find((candidate) => files.has(candidate));
}

/** Each file's resolved imports (edges to files of the set only), from the files' texts. */
export function importGraph(texts: ReadonlyMap<string, string>): Map<string, string[]> {
  const files = new Set(texts.keys());
  const graph = new Map<string, string[]>();
  for (const [file, text] of texts) {
    const targets = new Set<string>();
    for (const specifier of importSpecifiers(text)) {
      const target = resolveImport(file, specifier, files);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The circles of a graph: each strongly connected component of two or more files (or a file importing
 * itself), given as its files sorted and one circle through them (first file repeated at the end).
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): { files: string[]; path: string[] }[] {
  // Tarjan's algorithm, iterative (a deep import chain must not overflow the stack).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component.sort());
      }
    }
  }
  return components.map((files) => ({ files, path: circleThrough(files, graph) })).sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** A shortest circle from the component's first file back to itself (breadth-first within the component). */
function circleThrough(files: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(files);
  const start = files[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const circle = [start];
        for (let step: string | undefined = node; step !== undefined && step !== start; step = previous.get(step)) circle.splice(1, 0, step);
        return [...circle, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** The git-tracked (and new, not ignored) .ts/.tsx files under the roots that exist on disk, declaration files left out. */
export function sourceFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...ROOTS], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout.split('\0').filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && fs.existsSync(path.join(root, file)));
  return [...new Set(files)].sort();
}

/** The circles among the repository's files. */
export function repositoryCycles(files: readonly string[] = sourceFiles()): { files: string[]; path: string[] }[] {
  return findCycles(importGraph(new Map(files.map((file) => [file, fs.readFileSync(path.join(root, file), 'utf8')]))));
}

export function describeCycles(cycles: readonly { files: string[]; path: string[] }[]): string {
  return cycles.map((cycle, at) => `${at + 1}) ${cycle.files.length} files: ${cycle.path.join(' > ')}`).join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cycles = repositoryCycles();
  process.stdout.write(cycles.length === 0 ? `No import circles in ${ROOTS.join('/, ')}/\n` : `${cycles.length} import circles:\n${describeCycles(cycles)}\n`);
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
