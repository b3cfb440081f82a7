import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { features } from '../../server/features';
import { createLogger } from '../../server/platform/logger';
import { applyDocuments, type DocumentInput, type DocumentResult } from '../../server/platform/resources';
import { ROOT } from '../cli';
import { createTestDatabase, type TestDatabase } from '../db';

/**
 * Mission Control's own fixture documents (DESIGN §8 peer suites), read at run time from a checkout of
 * flanksource/mission-control that `MISSION_CONTROL_FIXTURES` names, and applied unchanged through the
 * apply path (`watchkeeper apply`, the watched folder) against a database of their own. Mission Control is
 * not under an open licence: none of its files is in this repository (DESIGN §9), so without the variable
 * this suite skips with one line saying why.
 *
 * `MISSION_CONTROL_FIXTURES` is a work tree (its `fixtures/` folder is read) or a bare git directory (the
 * files under `fixtures/` at `MISSION_CONTROL_REF`, default HEAD, are read with `git ls-tree` and
 * `git show`). Every YAML document with a `kind` is a fixture document; the suite prints how many are
 * accepted, by kind, and each refusal grouped by its reason. It measures, and fails only when nothing can
 * be read (a wrong path).
 */
const SOURCE = process.env.MISSION_CONTROL_FIXTURES?.trim() ?? '';
const REF = process.env.MISSION_CONTROL_REF?.trim() || 'HEAD';
const run = promisify(execFile);

const YAML_FILE = /\.ya?ml$/i;

/** Whether DIR is a bare git directory (HEAD and objects, no work tree). */
async function isBareGit(dir: string): Promise<boolean> {
  if (!existsSync(path.join(dir, 'HEAD')) || !existsSync(path.join(dir, 'objects'))) return false;
  try {
    // `--is-bare-repository` answers false for a mirror without core.bare set, so ask whether REF resolves.
    await run('git', ['--git-dir', dir, 'rev-parse', '--verify', '--quiet', `${REF}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** The fixture files of a bare git directory at REF: every YAML file under fixtures/. */
async function readBare(dir: string): Promise<DocumentInput[]> {
  const git = (args: string[]) => run('git', ['--git-dir', dir, ...args], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  const { stdout } = await git(['ls-tree', '-r', '-z', '--name-only', REF, '--', 'fixtures']);
  const files = stdout.split('\0').filter((file) => YAML_FILE.test(file)).sort();
  const inputs: DocumentInput[] = [];
  for (const file of files) inputs.push({ file, text: (await git(['show', `${REF}:${file}`])).stdout });
  return inputs;
}

/** The fixture files of a work tree: every YAML file under its fixtures/ folder (or under DIR itself). */
async function readTree(dir: string): Promise<DocumentInput[]> {
  const base = existsSync(path.join(dir, 'fixtures')) ? path.join(dir, 'fixtures') : dir;
  const files: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await fs.readdir(at, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && YAML_FILE.test(entry.name)) files.push(full);
    }
  };
  await walk(base);
  files.sort();
  return Promise.all(files.map(async (file) => ({ file: path.relative(dir, file), text: await fs.readFile(file, 'utf8') })));
}

/** The documents of a file that are resources (a `kind`), as their own inputs; the rest is counted. */
function resourceDocuments(input: DocumentInput): { documents: DocumentInput[]; other: number } {
  const documents: DocumentInput[] = [];
  let other = 0;
  for (const document of parseAllDocuments(input.text)) {
    let value: unknown;
    try {
      value = document.toJS();
    } catch {
      value = undefined;
    }
    const kind = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).kind : undefined;
    // A document that does not parse is kept: applying it says why, and it counts as refused.
    if (document.errors.length > 0 || (typeof kind === 'string' && kind !== '')) documents.push({ file: input.file, text: document.toString() });
    else if (value !== null && value !== undefined) other += 1;
  }
  return { documents, other };
}

/** A refusal's reason without its values, so that one cause over many documents is one line. */
function reasonOf(result: DocumentResult): string {
  const first = result.errors[0] ?? 'refused without a reason';
  return `${result.kind ?? '(no kind)'}: ${first.replace(/"[^"]*"/g, '"…"').replace(/\b[0-9a-f]{8}-[0-9a-f-]{27}\b/g, '<id>')}`;
}

let db: TestDatabase | undefined;

beforeAll(async () => {
  if (SOURCE) db = await createTestDatabase();
}, 180_000);

afterAll(async () => {
  await db?.drop();
});

describe('Mission Control fixtures (MISSION_CONTROL_FIXTURES, read at run time)', () => {
  it('apply unchanged; prints how many are accepted, by kind, and the refusals by reason', async (context) => {
    if (!SOURCE) {
      process.stdout.write('Mission Control peer suite: skipped, MISSION_CONTROL_FIXTURES is not set (a checkout or bare git directory of flanksource/mission-control; its files are never copied here)\n');
      context.skip();
      return;
    }
    expect(existsSync(SOURCE) && statSync(SOURCE).isDirectory(), `MISSION_CONTROL_FIXTURES=${SOURCE} is not a directory`).toBe(true);
    const bare = await isBareGit(SOURCE);
    const files = bare ? await readBare(SOURCE) : await readTree(SOURCE);
    const kinds = features.flatMap((feature) => feature.kinds ?? []);
    const log = createLogger('silent');
    const results: DocumentResult[] = [];
    let other = 0;
    for (const file of files) {
      const split = resourceDocuments(file);
      other += split.other;
      for (const [index, document] of split.documents.entries()) {
        const [result] = await applyDocuments(db!.pool, kinds, [document], 'ConfigFile', log);
        if (result) results.push({ ...result, index: index + 1 });
      }
    }
    expect(results.length, `no fixture documents under ${SOURCE}${bare ? ` (${REF}:fixtures)` : ''}`).toBeGreaterThan(0);

    const accepted = results.filter((result) => result.ok);
    const byKind = new Map<string, { accepted: number; total: number }>();
    for (const result of results) {
      const entry = byKind.get(result.kind ?? '(no kind)') ?? { accepted: 0, total: 0 };
      entry.total += 1;
      if (result.ok) entry.accepted += 1;
      byKind.set(result.kind ?? '(no kind)', entry);
    }
    const reasons = new Map<string, string[]>();
    for (const result of results.filter((r) => !r.ok)) {
      const reason = reasonOf(result);
      reasons.set(reason, [...(reasons.get(reason) ?? []), `${result.file}#${result.index}${result.name ? ` ${result.name}` : ''}`]);
    }
    const percent = ((100 * accepted.length) / results.length).toFixed(1);
    const summary = `${accepted.length} of ${results.length} Mission Control fixture documents accepted (${percent} %)`;
    process.stdout.write(
      [
        `Mission Control peer suite (${bare ? `bare git ${SOURCE} at ${REF}` : SOURCE}, ${files.length} files, ${other} documents without a kind not counted): ${summary}`,
        ...[...byKind.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `  ${kind}: ${n.accepted} of ${n.total}`),
        ...(reasons.size > 0 ? ['  refused, by reason:'] : []),
        ...[...reasons.entries()].sort((a, b) => b[1].length - a[1].length).map(([reason, where]) => `    ${where.length} × ${reason}\n      ${where.join(', ')}`),
        '',
      ].join('\n'),
    );
    await fs.mkdir(path.join(ROOT, '.tmp'), { recursive: true });
    await fs.writeFile(path.join(ROOT, '.tmp', 'peer-suite-mission-control.txt'), `${summary}\n`);
  }, 600_000);
});
