import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { createLogger } from './logger';
import { applyDocuments, readInputs, type ResourceKind } from './resources';

let db: TestDatabase;
const log = createLogger('silent');

// A kind made for this test: a widget with parts, written to two tables so that a failure half-way
// would show a half-written document if documents were not transactional.
const widgetSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal('Widget'),
  metadata: z.object({ name: z.string().min(1), namespace: z.string().default('default') }),
  spec: z.object({ size: z.number().int().positive(), parts: z.array(z.object({ name: z.string() })).default([]) }),
});
type Widget = z.infer<typeof widgetSchema>;

const widgetKind: ResourceKind<Widget> = {
  kind: 'Widget',
  apiVersions: ['example.com/v1'],
  schema: widgetSchema,
  async apply(doc, { client }) {
    const { rows } = await client.query<{ id: string; inserted: boolean }>(
      `INSERT INTO widgets (name, size) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET size = EXCLUDED.size RETURNING id, (xmax = 0) AS inserted`,
      [doc.metadata.name, doc.spec.size],
    );
    const row = rows[0];
    if (!row) throw new Error('no row');
    for (const part of doc.spec.parts) {
      await client.query('INSERT INTO widget_parts (widget_id, name) VALUES ($1, $2)', [row.id, part.name]);
    }
    return { action: row.inserted ? 'created' : 'updated', id: row.id, name: doc.metadata.name };
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`CREATE TABLE widgets (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text UNIQUE NOT NULL, size int NOT NULL)`);
  await db.pool.query(`CREATE TABLE widget_parts (widget_id uuid REFERENCES widgets(id), name text NOT NULL CHECK (name <> 'bad'))`);
});
afterAll(async () => db?.drop());

describe('applyDocuments', () => {
  it('applies valid documents and reports each invalid one with its index and field path', async () => {
    const text = [
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: one}\nspec: {size: 1, parts: [{name: a}]}',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: two}\nspec: {size: -3, parts: [{nom: b}]}',
      'apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: three}\nspec: {size: 3}',
      'apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: four}',
      '',
    ].join('\n---\n');
    const results = await applyDocuments(db.pool, [widgetKind], [{ file: 'w.yaml', text }], 'ConfigFile', log);
    expect(results.map((r) => [r.index, r.ok])).toEqual([[1, true], [2, false], [3, false], [4, false]]);
    expect(results[0]?.outcome?.action).toBe('created');
    expect(results[1]?.errors).toEqual(['spec.size: Too small: expected number to be >0', 'spec.parts[0].name: Invalid input: expected string, received undefined']);
    expect(results[2]?.errors[0]).toContain('apiVersion: "example.com/v2" is not accepted for Widget; use example.com/v1');
    expect(results[3]?.errors[0]).toContain('kind: "Gadget" is not a known kind (known kinds: Widget)');
    const { rows } = await db.pool.query('SELECT name, size FROM widgets ORDER BY name');
    expect(rows).toEqual([{ name: 'one', size: 1 }]);
  });

  it('writes nothing of a document whose apply fails half-way', async () => {
    const text = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: half}\nspec: {size: 2, parts: [{name: ok}, {name: bad}]}';
    const [result] = await applyDocuments(db.pool, [widgetKind], [{ file: 'h.yaml', text }], 'ConfigFile', log);
    expect(result?.ok).toBe(false);
    expect(result?.errors[0]).toContain('widget_parts_name_check');
    const { rowCount } = await db.pool.query("SELECT 1 FROM widgets WHERE name = 'half'");
    expect(rowCount).toBe(0);
  });

  it('updates on a second apply and reports YAML syntax errors with a line', async () => {
    const again = await applyDocuments(db.pool, [widgetKind], [{ file: 'w.yaml', text: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: one}\nspec: {size: 9}' }], 'ConfigFile', log);
    expect(again[0]?.outcome?.action).toBe('updated');
    const broken = await applyDocuments(db.pool, [widgetKind], [{ file: 'b.yaml', text: 'kind: Widget\nmetadata: {name: [x\n' }], 'ConfigFile', log);
    expect(broken[0]?.ok).toBe(false);
    expect(broken[0]?.errors[0]).toMatch(/^line \d+, column \d+: /);
  });

  it('reads a directory recursively in name order, resource files only', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-apply-'));
    await fs.mkdir(path.join(dir, 'b'));
    await fs.writeFile(path.join(dir, 'b', 'x.yml'), 'kind: A');
    await fs.writeFile(path.join(dir, 'a.yaml'), 'kind: B');
    await fs.writeFile(path.join(dir, 'notes.txt'), 'ignored');
    await fs.writeFile(path.join(dir, '.hidden.yaml'), 'ignored');
    const inputs = await readInputs(dir, async () => '');
    expect(inputs.map((input) => path.relative(dir, input.file))).toEqual(['a.yaml', path.join('b', 'x.yml')]);
    await expect(readInputs(path.join(dir, 'missing.yaml'), async () => '')).rejects.toThrow('no such file or directory');
    await fs.rm(dir, { recursive: true, force: true });
  });
});
