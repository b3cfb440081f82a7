import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';

/**
 * Issue 22: each view's rows are readable with the RBAC of the view. A Mission Control Permission whose
 * object selects views ({name, namespace}, `*` in names) allows or denies reading exactly those views:
 * POST /api/view/:id, /api/view/by-name, /api/view/list, the view's table under /api/db and its row in
 * /api/db/views and /api/db/views_summary (what the sidebar shows); a deny wins.
 */

const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);

let t: TestApp;
let reader: { id: string; headers: Record<string, string> };
let editor: { id: string; headers: Record<string, string> };
let globber: { id: string; headers: Record<string, string> };
const ids: Record<string, string> = {};
let namespaceId = '';

function view(name: string, title: string): string {
  return `
apiVersion: mission-control.flanksource.com/v1
kind: View
metadata: {name: ${name}}
spec:
  display:
    title: ${title}
    sidebar: true
    plugins:
      - configTab: {types: [Kubernetes::Namespace]}
  columns:
    - {name: name, type: string, primaryKey: true}
    - {name: health, type: health}
  queries:
    pods: {configs: {types: [Kubernetes::Pod]}}
`;
}

function permission(name: string, person: string, views: string, deny = false): string {
  return `
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: ${name}}
spec:
  subject: {person: ${person}}
  actions: [read]
  deny: ${deny}
  object:
    views: ${views}
`;
}

async function apply(text: string) {
  const results = await applyDocuments(t.db.pool, kinds, [{ file: 'rbac.yaml', text }], 'ConfigFile', log);
  for (const result of results) {
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true, errors: [] });
    expect(result.outcome?.warnings ?? []).toEqual([]);
  }
}

const post = (id: string, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `/api/view/${id}`, headers, payload: {} });
const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const summary = async (headers: Record<string, string>, relation = 'views_summary') => {
  const res = await get(`/api/db/${relation}?select=name&order=name`, { ...headers, prefer: 'count=exact' });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return { names: (res.json() as Array<{ name: string }>).map((item) => item.name), range: res.headers['content-range'] };
};
const listed = async (headers: Record<string, string>) => {
  const res = await get(`/api/view/list?config_id=${namespaceId}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Array<{ name: string }>).map((item) => item.name).sort();
};

beforeAll(async () => {
  t = await createTestApp();
  reader = await t.userWith([], 'view-reader@example.com');
  editor = await t.userWith(['editor'], 'view-editor@example.com');
  globber = await t.userWith([], 'view-globber@example.com');
  for (const name of ['api', 'web', 'db']) {
    await t.db.pool.query("INSERT INTO config_items (type, name, namespace, health, tags) VALUES ('Kubernetes::Pod', $1, 'prod', 'healthy', '{}')", [name]);
  }
  const { rows } = await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, namespace, tags) VALUES ('Kubernetes::Namespace', 'prod', 'prod', '{}') RETURNING id");
  namespaceId = rows[0]!.id;
  await apply([view('alpha', 'Alpha'), view('beta', 'Beta'), view('alpine', 'Alpine')].join('---'));
  await apply(
    [
      permission('reader-reads-alpha', 'view-reader@example.com', '[{name: alpha, namespace: default}]'),
      permission('editor-not-alpha', 'view-editor@example.com', '[{name: alpha}]', true),
      permission('globber-reads-al', 'view-globber@example.com', '[{name: "al*"}]'),
    ].join('---'),
  );
  const views = await t.db.pool.query<{ id: string; name: string }>('SELECT id, name FROM views WHERE deleted_at IS NULL');
  for (const row of views.rows) ids[row.name] = row.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a permission selecting views', () => {
  it('lets a person with no role read exactly the selected view', async () => {
    const answer = await post(ids.alpha!, reader.headers);
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.json() as { rows: unknown[] }).rows).toHaveLength(3);
    expect((await get('/api/view/by-name/alpha', reader.headers)).json()).toEqual({ id: ids.alpha });
    expect((await get('/api/view/by-name/default/alpha', reader.headers)).statusCode).toBe(200);

    const page = await get('/api/db/view_default_alpha?select=name,health&order=name.asc&limit=2&offset=1', { ...reader.headers, prefer: 'count=exact' });
    expect(page.statusCode, page.body).toBe(206);
    expect(page.json()).toEqual([{ name: 'db', health: 'healthy' }, { name: 'web', health: 'healthy' }]);
    expect(page.headers['content-range']).toBe('1-2/3');

    expect(await listed(reader.headers)).toEqual(['alpha']);
    expect(await listed(t.adminHeaders)).toEqual(['alpha', 'alpine', 'beta']);
    // The sidebar and the views list read views_summary: the views the caller may read.
    expect(await summary(reader.headers)).toEqual({ names: ['alpha'], range: '0-0/1' });
    expect(await summary(reader.headers, 'views')).toEqual({ names: ['alpha'], range: '0-0/1' });
    expect((await summary(t.adminHeaders)).names).toEqual(['alpha', 'alpine', 'beta']);
  });

  it('refuses the views it does not select, and their tables', async () => {
    expect((await post(ids.beta!, reader.headers)).statusCode).toBe(403);
    expect((await get('/api/view/by-name/beta', reader.headers)).statusCode).toBe(403);
    expect((await get('/api/db/view_default_beta', reader.headers)).statusCode).toBe(403);
    expect((await post(ids.alpine!, reader.headers)).statusCode).toBe(403);
    // Unknown names are still 404, to a caller who may read some view.
    expect((await get('/api/view/by-name/nothing', reader.headers)).statusCode).toBe(404);
  });

  it('matches names with `*`', async () => {
    expect((await post(ids.alpha!, globber.headers)).statusCode).toBe(200);
    expect((await post(ids.alpine!, globber.headers)).statusCode).toBe(200);
    expect((await post(ids.beta!, globber.headers)).statusCode).toBe(403);
    expect(await listed(globber.headers)).toEqual(['alpha', 'alpine']);
    expect((await summary(globber.headers)).names).toEqual(['alpha', 'alpine']);
  });

  it('a deny on one view wins over a role that reads all views', async () => {
    expect((await post(ids.alpha!, editor.headers)).statusCode).toBe(403);
    expect((await get('/api/view/by-name/alpha', editor.headers)).statusCode).toBe(403);
    expect((await get('/api/db/view_default_alpha', editor.headers)).statusCode).toBe(403);
    expect((await post(ids.beta!, editor.headers)).statusCode).toBe(200);
    expect((await get('/api/db/view_default_beta', editor.headers)).statusCode).toBe(200);
    expect(await listed(editor.headers)).toEqual(['alpine', 'beta']);
    expect((await summary(editor.headers)).names).toEqual(['alpine', 'beta']);
    expect((await get(`/api/db/views?id=eq.${ids.alpha}`, editor.headers)).json()).toEqual([]);
  });

  it('a person without any view permission reads none, and an anonymous caller must sign in', async () => {
    const nobody = await t.userWith([]);
    expect((await post(ids.alpha!, nobody.headers)).statusCode).toBe(403);
    expect((await get(`/api/view/list?config_id=${namespaceId}`, nobody.headers)).statusCode).toBe(403);
    expect((await get('/api/db/view_default_alpha', nobody.headers)).statusCode).toBe(403);
    expect((await get('/api/db/views_summary', nobody.headers)).statusCode).toBe(403);
    expect((await get(`/api/view/list?config_id=${namespaceId}`, {})).statusCode).toBe(401);
    expect((await post(ids.alpha!, {})).statusCode).toBe(401);
    expect((await get('/api/view/by-name/alpha', {})).statusCode).toBe(401);
  });
});
