import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { COLUMN_TYPES, PANEL_TYPES, QUERY_SOURCES, UNRUN_PANEL_TYPES } from '../spec';

/**
 * Compatibility of the View kind (docs/RESOURCES.md#view): the examples in examples/views apply without a
 * warning, and view files in Mission Control's format apply unchanged, any warning naming the field it is
 * about. Those files (tests/fixtures/compat) are our own, written from docs/VIEWS.md to exercise every query
 * source, column type, panel type and option of the format; Mission Control's own fixtures are read at run
 * time by test/peer-suite/mission-control.int.test.ts, never copied here (DESIGN §8, §9). Also the editor's
 * API: /api/views, /api/views/schema, /api/views/validate, and the rows /api/db serves.
 */

const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const EXAMPLES = path.join(ROOT, 'examples', 'views');
const FIXTURES = path.join(ROOT, 'server', 'features', 'views', 'tests', 'fixtures', 'compat');

let t: TestApp;

async function apply(file: string, text: string) {
  return applyDocuments(t.db.pool, kinds, [{ file, text }], 'ConfigFile', log);
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('examples/views', () => {
  it('every file applies as it is, without errors or warnings', async () => {
    const files = (await readdir(EXAMPLES)).filter((file) => file.endsWith('.yaml')).sort();
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const results = await apply(file, await readFile(path.join(EXAMPLES, file), 'utf8'));
      expect(results.some((result) => result.kind === 'View'), file).toBe(true);
      for (const result of results) {
        expect(result, `${file} #${result.index}`).toMatchObject({ ok: true, errors: [] });
        expect(result.outcome?.warnings ?? [], `${file} #${result.index}`).toEqual([]);
      }
    }
    const { rows } = await t.db.pool.query('SELECT name, title, icon, ordinal, sidebar, mcp FROM views WHERE namespace = $1 ORDER BY name', ['default']);
    expect(rows).toEqual(expect.arrayContaining([
      { name: 'pods', title: 'Pods', icon: 'kubernetes::pod', ordinal: 1, sidebar: true, mcp: false },
      { name: 'namespace-pods', title: 'Pods', icon: 'kubernetes::pod', ordinal: null, sidebar: false, mcp: false },
    ]));
  });
});

describe('view files in Mission Control\'s format (tests/fixtures/compat)', async () => {
  const files = (await readdir(FIXTURES)).filter((file) => file.endsWith('.yaml')).sort();

  it('are our own and cover every query source, column type and panel type of the format', async () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
    const sources = new Set<string>();
    const columnTypes = new Set<string>();
    const panelTypes = new Set<string>();
    for (const file of files) {
      const text = await readFile(path.join(FIXTURES, file), 'utf8');
      expect(text, file).not.toMatch(/flanksource\/mission-control|^# Source:/m);
      for (const doc of parseAllDocuments(text)) {
        const spec = (doc.toJS() as { spec?: { queries?: Record<string, Record<string, unknown>>; columns?: { type: string }[]; panels?: { type: string }[] } }).spec ?? {};
        for (const query of Object.values<Record<string, unknown>>(spec.queries ?? {})) for (const key of Object.keys(query)) if (key !== 'columns') sources.add(key);
        for (const column of spec.columns ?? []) columnTypes.add(column.type);
        for (const panel of spec.panels ?? []) panelTypes.add(panel.type);
      }
    }
    expect([...sources].sort()).toEqual([...QUERY_SOURCES].sort());
    expect([...columnTypes].sort()).toEqual([...COLUMN_TYPES].sort());
    expect([...panelTypes].sort()).toEqual([...PANEL_TYPES, ...UNRUN_PANEL_TYPES].sort());
  });

  for (const file of files) {
    it(`${file} applies unchanged`, async () => {
      const results = await apply(file, await readFile(path.join(FIXTURES, file), 'utf8'));
      expect(results.length, file).toBeGreaterThan(0);
      for (const result of results) {
        expect(result, `${file} #${result.index}`).toMatchObject({ ok: true, errors: [] });
        for (const warning of result.outcome?.warnings ?? []) expect(warning, `${file} #${result.index}`).toMatch(/^spec\./);
      }
    });
  }

  it('a spec written at the top (older format) is warned by field', async () => {
    const results = await apply('older-top-level.yaml', await readFile(path.join(FIXTURES, 'older-top-level.yaml'), 'utf8'));
    expect(results[0]?.outcome?.warnings).toEqual(expect.arrayContaining(['spec.title is not read by this console and was ignored', 'spec.icon is not read by this console and was ignored']));
  });

  it('fields the console does not run are warned by name, and the view is still saved', async () => {
    const warnings = async (file: string) => (await apply(file, await readFile(path.join(FIXTURES, file), 'utf8'))).flatMap((result) => result.outcome?.warnings ?? []);
    expect(await warnings('panel-playbooks.yaml')).toEqual(['spec.panels[0].type: playbooks panels are not run by this console: the panel is not shown']);
    expect(await warnings('namespace-detail.yaml')).toContain('spec.columns[1].cardPosition is the older name of card.position: read as card.position');
    expect(await warnings('templated-resources.yaml')).toEqual(['spec.mapping.kind is not a column of this view: its value is computed but not shown']);
    expect(await warnings('ui-ref-sections.yaml')).toHaveLength(6);
    expect(await warnings('panel-without-query.yaml')).toEqual(['spec.panels[0].query is empty: the panel shows the error "query is required" (give SQL over the view\'s query results)']);
    const { rows } = await t.db.pool.query("SELECT name FROM views WHERE namespace = 'harbour' AND name = ANY($1) ORDER BY name", [['chart-resources', 'harbour-activity', 'recent-runbooks']]);
    expect(rows.map((row) => row.name)).toEqual(['chart-resources', 'harbour-activity', 'recent-runbooks']);
  });

  it('a panel without a query answers "query is required" as its own error; the other panels run', async () => {
    await apply('panel-without-query.yaml', await readFile(path.join(FIXTURES, 'panel-without-query.yaml'), 'utf8'));
    await t.db.pool.query("INSERT INTO config_items (type, name, external_id) VALUES ('Harbour::Berth', 'b1', '{b1}'), ('Harbour::Berth', 'b2', '{b2}')");
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM views WHERE namespace = 'harbour' AND name = 'berth-summary' AND deleted_at IS NULL");
    const response = await t.app.inject({ method: 'POST', url: `/api/view/${rows[0]?.id}`, headers: t.adminHeaders, payload: {} });
    expect(response.statusCode, response.body).toBe(200);
    const panels = Object.fromEntries((response.json().panels as Array<{ name: string }>).map((panel) => [panel.name, panel]));
    expect(panels['berth states']).toMatchObject({ type: 'table', rows: [], error: 'query is required' });
    expect(panels['berth count']).toMatchObject({ type: 'number', rows: [{ value: expect.anything() }] });
    expect(panels['berth count']).not.toHaveProperty('error');
  });
});

describe('/api/views', () => {
  const spec = {
    display: { title: 'Nodes', sidebar: true, ordinal: 4 },
    columns: [{ name: 'id', type: 'string', primaryKey: true, hidden: true }, { name: 'name', type: 'string' }],
    queries: { nodes: { configs: { types: ['Kubernetes::Node'] } } },
    mapping: { id: 'row.id', name: 'row.name' },
  };

  it('creates, updates and deletes a view; the list and the row are in /api/db', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/views', headers: t.adminHeaders, payload: { name: 'nodes', spec } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json()).toMatchObject({ action: 'created', warnings: [] });

    const table = async () => (await t.db.pool.query("SELECT to_regclass('view_default_nodes') IS NOT NULL AS exists")).rows[0].exists;
    expect(await table()).toBe(true);

    const again = await t.app.inject({ method: 'POST', url: '/api/views', headers: t.adminHeaders, payload: { name: 'nodes', spec } });
    expect(again.statusCode).toBe(409);

    const summary = await t.app.inject({ method: 'GET', url: `/api/db/views_summary?id=eq.${id}`, headers: t.adminHeaders });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()[0]).toMatchObject({ name: 'nodes', namespace: 'default', title: 'Nodes', sidebar: true, ordinal: 4, column_count: 2, panel_count: 0, query_count: 1 });
    expect(summary.json()[0]).toHaveProperty('last_ran');

    const updated = await t.app.inject({
      method: 'PUT', url: `/api/views/${id}`, headers: t.adminHeaders,
      payload: { spec: { ...spec, display: { title: 'Cluster nodes' }, sections: [{ title: 'Later', viewRef: { name: 'not-yet' } }] } },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().warnings).toEqual(['spec.sections[0].viewRef: no view default/not-yet yet; the section shows an error until it is applied']);
    const row = await t.app.inject({ method: 'GET', url: `/api/db/views?id=eq.${id}&select=title,sidebar,spec`, headers: t.adminHeaders });
    expect(row.json()[0]).toMatchObject({ title: 'Cluster nodes', sidebar: false });

    const bad = await t.app.inject({
      method: 'PUT', url: `/api/views/${id}`, headers: t.adminHeaders,
      payload: { spec: { ...spec, columns: [...spec.columns, { name: 'cpu', type: 'percent' }] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'body.spec.columns[2].type', message: expect.stringMatching(/^must be one of string, number, boolean/) }]);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/views/${id}`, headers: t.adminHeaders });
    expect(removed.statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/api/db/views_summary?id=eq.${id}`, headers: t.adminHeaders });
    expect(gone.json()).toEqual([]);
    expect(await table()).toBe(false);
  });

  it('answers the JSON schema and validates without saving', async () => {
    const schema = await t.app.inject({ method: 'GET', url: '/api/views/schema', headers: t.adminHeaders });
    expect(schema.statusCode).toBe(200);
    expect(Object.keys(schema.json().properties)).toEqual(expect.arrayContaining(['display', 'queries', 'columns', 'mapping', 'panels', 'templating', 'cache', 'sections']));

    const ok = await t.app.inject({ method: 'POST', url: '/api/views/validate', headers: t.adminHeaders, payload: { spec: { ...spec, mcp: { title: 'x' } } } });
    expect(ok.json()).toEqual({ errors: [], warnings: [] });
    const bad = await t.app.inject({ method: 'POST', url: '/api/views/validate', headers: t.adminHeaders, payload: { spec: { ...spec, mapping: { name: 'row.name +' } } } });
    expect(bad.json().errors).toEqual([{ path: 'spec.mapping.name', message: expect.stringContaining('row.name +') }]);
    const none = await t.app.inject({ method: 'POST', url: '/api/views/validate', headers: t.adminHeaders, payload: { spec: 'x' } });
    expect(none.json()).toEqual({ errors: [{ path: 'spec', message: 'must be a mapping' }], warnings: [] });
  });

  it('writes through /api/db are refused: a view is saved whole through /api/views', async () => {
    const insert = await t.app.inject({ method: 'POST', url: '/api/db/views', headers: t.adminHeaders, payload: { name: 'x', spec: {} } });
    expect(insert.statusCode).toBeGreaterThanOrEqual(400);
  });
});
