import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, ROLES, type Capability, type Role } from '../../common/rbac';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, findings 1, 2 and 4, and the capability matrix: every role × every capability × every kind
 * that can use it, saved through the console's API. Admins hold every capability; an editor holds none
 * until an admin grants one (a permission whose object is the capability); the other roles may not
 * write those kinds at all. Each refusal names the capability and the field.
 */
let t: TestApp;
const users = new Map<Role, { id: string; headers: Record<string, string> }>();
let suffix = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) users.set(role, await t.userWith([role]));
  // A stored connection the specs refer to (an admin's).
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/connections',
    headers: { ...t.adminHeaders, 'content-type': 'application/json' },
    payload: { name: 'admin-db', namespace: 'default', type: 'postgres', url: 'postgres://127.0.0.1:5432/postgres', username: 'postgres', password: 'secret' },
  });
  expect(created.statusCode, created.body).toBeLessThan(300);
  const hook = await t.app.inject({
    method: 'POST',
    url: '/api/connections',
    headers: { ...t.adminHeaders, 'content-type': 'application/json' },
    payload: { name: 'admin-hook', namespace: 'default', type: 'generic_webhook', url: 'http://127.0.0.1:9/hook' },
  });
  expect(hook.statusCode, hook.body).toBeLessThan(300);
});

afterAll(async () => {
  await t?.close();
});

function as(role: Role): Record<string, string> {
  const user = users.get(role);
  if (!user) throw new Error(`no ${role}`);
  return { ...user.headers, 'content-type': 'application/json' };
}

interface Case {
  kind: string;
  capability: Capability;
  url: string;
  field: string;
  body: (name: string) => Record<string, unknown>;
}

const CASES: Case[] = [
  { kind: 'Canary', capability: 'exec', url: '/api/canary/canaries', field: 'spec.exec[0]', body: (name) => ({ name, spec: { schedule: '@every 1h', exec: [{ name: 'run', script: 'id' }] } }) },
  {
    kind: 'Canary',
    capability: 'javascript',
    url: '/api/canary/canaries',
    field: 'spec.http[0].display.javascript',
    body: (name) => ({ name, spec: { schedule: '@every 1h', http: [{ name: 'web', url: 'http://127.0.0.1:9/', display: { javascript: '"up"' } }] } }),
  },
  { kind: 'Canary', capability: 'server_files', url: '/api/canary/canaries', field: 'spec.folder[0].path', body: (name) => ({ name, spec: { schedule: '@every 1h', folder: [{ name: 'data', path: '/etc' }] } }) },
  {
    kind: 'Canary',
    capability: 'connection_use',
    url: '/api/canary/canaries',
    field: 'spec.http[0].connection',
    body: (name) => ({ name, spec: { schedule: '@every 1h', http: [{ name: 'sink', url: 'http://127.0.0.1:9/', connection: 'connection://default/admin-db' }] } }),
  },
  {
    kind: 'Canary',
    capability: 'connection_use',
    url: '/api/canary/canaries',
    field: 'spec.http[0].password.valueFrom',
    body: (name) => ({
      name,
      spec: { schedule: '@every 1h', http: [{ name: 'sink', url: 'http://127.0.0.1:9/', username: { value: 'u' }, password: { valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } } }] },
    }),
  },
  {
    kind: 'ScrapeConfig',
    capability: 'exec',
    url: '/api/catalog/scrapers',
    field: 'spec.exec[0]',
    body: (name) => ({ name, spec: { schedule: '@every 1h', exec: [{ script: 'echo "[]"', type: 'Thing', id: '$.id', name: '$.id' }] } }),
  },
  {
    kind: 'ScrapeConfig',
    capability: 'server_files',
    url: '/api/catalog/scrapers',
    field: 'spec.file[0].paths',
    body: (name) => ({ name, spec: { schedule: '@every 1h', file: [{ paths: ['/etc/hostname'], type: 'Host', id: '$.id', name: '$.id' }] } }),
  },
  {
    kind: 'ScrapeConfig',
    capability: 'sql',
    url: '/api/catalog/scrapers',
    field: 'spec.sql[0]',
    body: (name) => ({ name, spec: { schedule: '@every 1h', sql: [{ connection: 'postgres://postgres@127.0.0.1:5432/postgres', query: 'SELECT 1 AS id', type: 'Row', id: '$.id', name: '$.id' }] } }),
  },
  {
    kind: 'Playbook',
    capability: 'exec',
    url: '/api/playbooks',
    field: 'spec.actions[0].exec',
    body: (name) => ({ name, spec: { actions: [{ name: 'run', exec: { script: 'id' } }] } }),
  },
  {
    kind: 'Playbook',
    capability: 'sql',
    url: '/api/playbooks',
    field: 'spec.actions[0].sql',
    body: (name) => ({ name, spec: { actions: [{ name: 'write', sql: { driver: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/postgres', query: 'SELECT 1' } }] } }),
  },
  {
    kind: 'Playbook',
    capability: 'connection_use',
    url: '/api/playbooks',
    field: 'spec.actions[0].http.connection',
    body: (name) => ({ name, spec: { actions: [{ name: 'call', http: { url: 'http://127.0.0.1:9/', connection: 'connection://default/admin-db' } }] } }),
  },
  {
    kind: 'View',
    capability: 'sql',
    url: '/api/views',
    field: 'spec.queries.people.sql',
    body: (name) => ({
      name,
      spec: {
        columns: [{ name: 'name', type: 'string', primaryKey: true }],
        queries: { people: { sql: { connection: 'connection://default/admin-db', query: 'SELECT name FROM people' } } },
      },
    }),
  },
  {
    kind: 'Notification',
    capability: 'connection_use',
    url: '/api/notifications',
    field: 'spec.to.connection',
    body: (name) => ({ name, spec: { events: ['check.failed'], to: { connection: 'connection://default/admin-hook' } } }),
  },
  {
    kind: 'LogBackend',
    capability: 'server_files',
    url: '/api/logs/backends',
    field: 'spec.files[0].paths',
    body: (name) => ({ name, spec: { files: [{ paths: ['logs/*.log'] }] } }),
  },
];

describe('the capability matrix: role × capability × kind', () => {
  it('covers every capability a spec can use', () => {
    const specCapabilities = CAPABILITIES.filter((capability) => capability !== 'auth_settings' && capability !== 'agent_tokens');
    expect([...new Set(CASES.map((item) => item.capability))].sort()).toEqual([...specCapabilities].sort());
  });

  for (const item of CASES) {
    for (const role of ROLES) {
      it(`${role}: ${item.kind} using ${item.capability} (${item.field})`, async () => {
        suffix += 1;
        const res = await t.app.inject({ method: 'POST', url: item.url, headers: as(role), payload: item.body(`cap-${role}-${suffix}`) });
        if (role === 'admin') {
          expect(res.statusCode, res.body).toBe(201);
          return;
        }
        expect(res.statusCode, res.body).toBe(403);
        if (role === 'editor') {
          const body = res.json();
          expect(body.details?.error, res.body).toBe('capability_required');
          expect(body.message).toContain(`"${item.capability}"`);
          expect(body.message).toContain(item.field);
        }
      });
    }
  }
});

describe('an admin grants a capability', () => {
  it('an editor with a permission on exec saves an exec canary; without it, not', async () => {
    const editor = await t.userWith(['editor']);
    const headers = { ...editor.headers, 'content-type': 'application/json' };
    const spec = { schedule: '@every 1h', exec: [{ name: 'run', script: 'echo ok' }] };
    const refused = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers, payload: { name: 'granted-exec', spec } });
    expect(refused.statusCode).toBe(403);
    const grant = await t.app.inject({
      method: 'POST',
      url: '/api/db/permissions',
      headers: { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' },
      payload: { name: 'editor-exec', subject: editor.id, subject_type: 'person', object: 'exec', action: '*' },
    });
    expect(grant.statusCode, grant.body).toBe(201);
    const saved = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers, payload: { name: 'granted-exec', spec } });
    expect(saved.statusCode, saved.body).toBe(201);
    const { rows } = await t.db.pool.query('SELECT updated_by FROM canaries WHERE id = $1', [saved.json().id]);
    expect(rows[0]?.updated_by).toBe(editor.id);

    // Taken back: the canary stays, but its exec check is not run for that author any more.
    const permission = grant.json()[0];
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/db/permissions?id=eq.${permission.id}`, headers: t.adminHeaders });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    const { rows: checks } = await t.db.pool.query<{ id: string }>('SELECT id FROM checks WHERE canary_id = $1 AND deleted_at IS NULL', [saved.json().id]);
    const check = checks[0];
    expect(check).toBeDefined();
    const run = await t.app.inject({ method: 'POST', url: `/api/canary/run/check/${check?.id}`, headers: t.adminHeaders });
    expect(run.statusCode, run.body).toBeLessThan(300);
    const { rows: results } = await t.db.pool.query<{ status: boolean; message: string | null }>('SELECT status, message FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 1', [check?.id]);
    expect(results[0]?.status).toBe(false);
    expect(results[0]?.message).toContain('needs the capability "exec"');
  });

  it('a log backend and a view stop reading once their author loses server_files and sql', async () => {
    const editor = await t.userWith(['editor']);
    const headers = { ...editor.headers, 'content-type': 'application/json' };
    const admin = { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' };
    const grants: string[] = [];
    for (const object of ['server_files', 'sql', 'connection_use']) {
      const grant = await t.app.inject({ method: 'POST', url: '/api/db/permissions', headers: admin, payload: { name: `editor-${object}`, subject: editor.id, subject_type: 'person', object, action: '*' } });
      expect(grant.statusCode, grant.body).toBe(201);
      grants.push(grant.json()[0].id);
    }
    const backend = await t.app.inject({ method: 'POST', url: '/api/logs/backends', headers, payload: { name: 'granted-logs', spec: { files: [{ paths: ['logs/*.log'] }] } } });
    expect(backend.statusCode, backend.body).toBe(201);
    const view = await t.app.inject({
      method: 'POST',
      url: '/api/views',
      headers,
      payload: {
        name: 'granted-sql',
        spec: { columns: [{ name: 'n', type: 'number', primaryKey: true }], queries: { one: { sql: { connection: 'connection://default/admin-db', query: 'SELECT 1 AS n' } } } },
      },
    });
    expect(view.statusCode, view.body).toBe(201);
    for (const id of grants) await t.app.inject({ method: 'DELETE', url: `/api/db/permissions?id=eq.${id}`, headers: t.adminHeaders });
    // The author cache holds for a few seconds.
    await new Promise((resolve) => setTimeout(resolve, 5200));

    const search = await t.app.inject({ method: 'POST', url: '/api/logs', headers: t.adminHeaders, payload: { name: 'granted-logs' } });
    expect(search.statusCode, search.body).toBe(403);
    expect(search.json().message).toContain('needs the capability "server_files"');
    const rows = await t.app.inject({ method: 'POST', url: `/api/view/${view.json().id}`, headers: t.adminHeaders, payload: {} });
    const answer = rows.json();
    expect(answer.error).toMatch(/^not run: spec\.queries\.one\.sql, spec\.queries\.one\.sql\.connection need the capabilities "sql", "connection_use"/);
    expect(answer.rows).toEqual([]);
  });

  it('a spec saved by a file (no author) runs whatever it uses; an author who no longer exists holds nothing', async () => {
    const { runRefusal } = await import('../../server/platform/auth/capabilities');
    expect(await runRefusal(t.db.pool, null, [{ capability: 'exec', path: 'spec.exec[0]' }])).toBeUndefined();
    const gone = await runRefusal(t.db.pool, '00000000-0000-0000-0000-00000000beef', [{ capability: 'exec', path: 'spec.exec[0]' }]);
    expect(gone?.message).toContain('no longer exists');
  });
});

describe('finding 1: an editor may not change sign-in settings through properties', () => {
  it('auth.registration.default_role = admin is refused for an editor and allowed for an admin', async () => {
    const editor = await t.app.inject({ method: 'POST', url: '/api/db/properties', headers: as('editor'), payload: { name: 'auth.registration.default_role', value: 'admin' } });
    expect(editor.statusCode, editor.body).toBe(403);
    expect(editor.json().message).toContain('auth_settings');
    const { rows } = await t.db.pool.query("SELECT value FROM properties WHERE name = 'auth.registration.default_role'");
    expect(rows).toEqual([]);
    const disable = await t.app.inject({ method: 'POST', url: '/api/db/properties', headers: as('editor'), payload: { name: 'auth.registration.disable', value: 'true' } });
    expect(disable.statusCode).toBe(403);
    const admin = await t.app.inject({ method: 'POST', url: '/api/db/properties', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: { name: 'auth.registration.disable', value: 'false' } });
    expect(admin.statusCode, admin.body).toBe(201);
    // Renaming or deleting an auth.* row is the same change.
    const change = await t.app.inject({ method: 'PATCH', url: '/api/db/properties?name=eq.auth.registration.disable', headers: as('editor'), payload: { value: 'true' } });
    expect(change.statusCode).toBe(403);
    const rename = await t.app.inject({ method: 'PATCH', url: '/api/db/properties?name=eq.auth.registration.disable', headers: as('editor'), payload: { name: 'x.flag' } });
    expect(rename.statusCode).toBeGreaterThanOrEqual(400);
    const remove = await t.app.inject({ method: 'DELETE', url: '/api/db/properties?name=eq.auth.registration.disable', headers: as('editor') });
    expect(remove.statusCode).toBe(403);
  });

  it('an editor still sets ordinary feature flags', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/db/properties', headers: as('editor'), payload: { name: 'incidents.disable', value: 'false' } });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('finding 4 through /api/db and kubectl', () => {
  it('a view with sql through a connection is refused on /api/db for an editor', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/db/views',
      headers: as('editor'),
      payload: {
        name: 'steal-people',
        namespace: 'default',
        spec: { columns: [{ name: 'name', type: 'string', primaryKey: true }], queries: { people: { sql: { connection: 'connection://default/admin-db', query: 'SELECT name FROM people' } } } },
      },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: '42501' });
    expect(res.json().message).toContain('"sql"');
  });

  it('an exec canary through the Kubernetes API is Forbidden for an editor', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/default/canaries',
      headers: as('editor'),
      payload: { apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name: 'kube-exec', namespace: 'default' }, spec: { exec: [{ name: 'run', script: 'id' }] } },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    expect(res.json().message).toContain('"exec"');
  });
});
