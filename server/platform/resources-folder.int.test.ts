import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { createLogger } from './logger';
import type { ResourceKind } from './resources';
import { watchResourcesFolder } from './resources-folder';

let db: TestDatabase;
let dir: string;
const log = createLogger('silent');

const noteSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal('Note'),
  metadata: z.object({ name: z.string().min(1) }),
  spec: z.object({ text: z.string().min(1, 'must not be empty') }),
});

const noteKind: ResourceKind<z.infer<typeof noteSchema>> = {
  kind: 'Note',
  apiVersions: ['example.com/v1'],
  schema: noteSchema,
  async apply(doc, { client, source }) {
    const { rows } = await client.query<{ id: string; inserted: boolean }>(
      `INSERT INTO notes (name, text, source) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET text = EXCLUDED.text, applied = notes.applied + 1 RETURNING id, (xmax = 0) AS inserted`,
      [doc.metadata.name, doc.spec.text, source],
    );
    return { action: rows[0]?.inserted ? 'created' : 'updated', id: rows[0]?.id ?? '', name: doc.metadata.name };
  },
};

const note = (name: string, text: string) => `apiVersion: example.com/v1\nkind: Note\nmetadata: {name: ${name}}\nspec: {text: "${text}"}\n`;

async function notes(): Promise<Record<string, { text: string; applied: number; source: string }>> {
  const { rows } = await db.pool.query<{ name: string; text: string; applied: number; source: string }>('SELECT name, text, applied, source FROM notes');
  return Object.fromEntries(rows.map((row) => [row.name, { text: row.text, applied: row.applied, source: row.source }]));
}

/** Waits (at most 10 s) for the watcher to have applied what `ready` looks for. */
async function until(ready: (rows: Awaited<ReturnType<typeof notes>>) => boolean): Promise<Awaited<ReturnType<typeof notes>>> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const rows = await notes();
    if (ready(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return notes();
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`CREATE TABLE notes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text UNIQUE NOT NULL, text text NOT NULL, source text NOT NULL, applied int NOT NULL DEFAULT 1)`);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-resources-'));
});
afterAll(async () => {
  await db?.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the watched resources folder', () => {
  it('applies every file on start, then each file added or changed, and nothing that did not change', async () => {
    await fs.mkdir(path.join(dir, 'team'));
    await fs.writeFile(path.join(dir, 'a.yaml'), note('alpha', 'one'));
    await fs.writeFile(path.join(dir, 'team', 'b.yml'), `${note('beta', 'one')}---\n${note('gamma', 'one')}`);
    await fs.writeFile(path.join(dir, 'README.md'), 'not a resource');
    const folder = await watchResourcesFolder(dir, { pool: db.pool, kinds: [noteKind as ResourceKind], log, debounceMs: 50, pollMs: 60_000 });
    try {
      expect(await notes()).toEqual({
        alpha: { text: 'one', applied: 1, source: 'ConfigFile' },
        beta: { text: 'one', applied: 1, source: 'ConfigFile' },
        gamma: { text: 'one', applied: 1, source: 'ConfigFile' },
      });

      // The file watcher notices an edit and an added file; the untouched file is not applied again.
      await fs.writeFile(path.join(dir, 'a.yaml'), note('alpha', 'two'));
      await fs.writeFile(path.join(dir, 'team', 'c.json'), JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Note', metadata: { name: 'delta' }, spec: { text: 'json' } }));
      const after = await until((rows) => rows.alpha?.text === 'two' && rows.delta !== undefined);
      expect(after.alpha).toEqual({ text: 'two', applied: 2, source: 'ConfigFile' });
      expect(after.delta?.text).toBe('json');
      expect(after.beta?.applied).toBe(1);
      expect(await folder.scan()).toEqual([]);

      // An editor that saves by renaming a new file over the old one (sed -i, vim), and a folder made later.
      await fs.writeFile(path.join(dir, '.a.yaml.swp'), note('alpha', 'three'));
      await fs.rename(path.join(dir, '.a.yaml.swp'), path.join(dir, 'a.yaml'));
      await fs.mkdir(path.join(dir, 'later'));
      await until((rows) => rows.alpha?.text === 'three');
      await fs.writeFile(path.join(dir, 'later', 'e.yaml'), note('eta', 'late'));
      const last = await until((rows) => rows.eta !== undefined);
      expect(last.alpha?.text).toBe('three');
      expect(last.eta?.text).toBe('late');
    } finally {
      await folder.stop();
    }
  });

  it('reports a bad document and still applies the others; a removed file keeps its resources', async () => {
    const folder = await watchResourcesFolder(dir, { pool: db.pool, kinds: [noteKind as ResourceKind], log, debounceMs: 60_000, pollMs: 60_000 });
    try {
      await fs.writeFile(path.join(dir, 'bad.yaml'), `${note('epsilon', 'ok')}---\napiVersion: example.com/v1\nkind: Note\nmetadata: {name: zeta}\nspec: {text: ""}\n`);
      await fs.rm(path.join(dir, 'team'), { recursive: true });
      const results = await folder.scan();
      expect(results.map((result) => [result.name, result.ok, result.errors])).toEqual([
        ['epsilon', true, []],
        ['zeta', false, ['spec.text: must not be empty']],
      ]);
      const rows = await notes();
      expect(rows.epsilon?.text).toBe('ok');
      expect(rows.zeta).toBeUndefined();
      expect(rows.beta?.text).toBe('one');
      // The bad file is applied again once it is fixed, and only then.
      expect(await folder.scan()).toEqual([]);
      await fs.writeFile(path.join(dir, 'bad.yaml'), note('zeta', 'fixed'));
      expect((await folder.scan()).map((result) => [result.name, result.ok])).toEqual([['zeta', true]]);
    } finally {
      await folder.stop();
    }
  });

  it('creates a missing folder and refuses a file', async () => {
    const missing = path.join(dir, 'new', 'resources');
    const folder = await watchResourcesFolder(missing, { pool: db.pool, kinds: [noteKind as ResourceKind], log });
    await folder.stop();
    expect((await fs.stat(missing)).isDirectory()).toBe(true);
    await expect(watchResourcesFolder(path.join(dir, 'a.yaml'), { pool: db.pool, kinds: [noteKind as ResourceKind], log })).rejects.toThrow(/is not a directory/);
  });
});
