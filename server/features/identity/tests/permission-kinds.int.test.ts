import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments, type ResourceKind } from '../../../platform/resources';
import { watchResourcesFolder } from '../../../platform/resources-folder';
import { identityFeature } from '../index';

// Permission and PermissionGroup documents in Mission Control's shape (its PermissionSpec and
// PermissionGroupSpec), written here from the upstream types, applied as `apply -f` and the watched folder
// apply them, and judged at the HTTP edge.

let t: TestApp;
let viewer: { id: string; headers: Record<string, string> };
let editor: { id: string; headers: Record<string, string> };
const log = createLogger('silent');
const kinds: ResourceKind[] = identityFeature.kinds ?? [];

async function apply(text: string) {
  return applyDocuments(t.db.pool, kinds, [{ file: 'permissions.yaml', text }], 'ConfigFile', log);
}

async function check(body: Record<string, unknown>, headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/rbac/check', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  expect(res.statusCode, res.body).toBe(200);
  const json: { allowed: boolean; reason: string } = JSON.parse(res.body);
  return { allowed: json.allowed, reason: json.reason };
}

async function dbGet(url: string, headers: Record<string, string>) {
  return (await t.app.inject({ method: 'GET', url: `/api/db/${url}`, headers })).statusCode;
}

beforeAll(async () => {
  t = await createTestApp();
  viewer = await t.userWith(['viewer'], 'sre-viewer@example.com');
  editor = await t.userWith(['editor'], 'foo@bar.com');
});

afterAll(async () => {
  await t?.close();
});

describe('kind PermissionGroup and kind Permission', () => {
  it('applies groups and permissions as rows the permission engine evaluates on the next request', async () => {
    const results = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: sre}
spec: {members: [sre-viewer@example.com]}
---
apiVersion: mission-control.flanksource.com/v1
kind: PermissionGroup
metadata: {name: on-call}
spec:
  name: on-call
  teams: [sre]
  people: [nobody-yet@example.com]
  notifications:
    - {name: check-alerts, namespace: mc}
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: on-call-no-job-history, namespace: mc}
spec:
  description: the on-call group does not read the database
  subject: {group: on-call}
  actions: [read]
  deny: true
  object: {global: database}
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: deny-foo-playbook-run}
spec:
  description: foo may not run any playbook
  subject: {person: foo@bar.com}
  action: playbook:run
  deny: true
  object:
    playbooks:
      - {}
`);
    expect(results.map((result) => [result.kind, result.ok, result.outcome?.action, result.errors])).toEqual([
      ['Team', true, 'created', []],
      ['PermissionGroup', true, 'created', []],
      ['Permission', true, 'created', []],
      ['Permission', true, 'created', []],
    ]);
    expect(results[1]?.outcome?.warnings).toEqual([
      'spec.notifications: notifications never make requests in this console; kept, they gain nothing',
      'spec.people: "nobody-yet@example.com" has no account in this console yet; they join the group when it exists',
    ]);
    // The viewer is in the group through the team: the deny applies to their very next request.
    expect(await dbGet('job_history', viewer.headers)).toBe(403);
    expect(await dbGet('job_history', editor.headers)).toBe(200);
    expect(await check({ object: 'playbooks', action: 'playbook:run' }, editor.headers)).toEqual({ allowed: false, reason: 'deny' });
    expect(await check({ object: 'playbooks', action: 'read' }, editor.headers)).toEqual({ allowed: true, reason: 'role' });
    // A person named before their account exists joins when it does.
    const late = await t.userWith(['viewer'], 'nobody-yet@example.com');
    expect(await dbGet('job_history', late.headers)).toBe(403);
    const { rows } = await t.db.pool.query("SELECT subject_type, subject, object, deny, source FROM permissions WHERE name = 'on-call-no-job-history'");
    expect(rows).toEqual([{ subject_type: 'group', subject: 'on-call', object: 'database', deny: true, source: 'ConfigFile' }]);
    // Administrators read the groups through /api/db; others cannot.
    const groups = await t.app.inject({ method: 'GET', url: '/api/db/permission_groups?select=name,teams,people,source&name=eq.on-call', headers: t.adminHeaders });
    expect(groups.statusCode, groups.body).toBe(200);
    expect(JSON.parse(groups.body)).toEqual([{ name: 'on-call', teams: ['sre'], people: ['nobody-yet@example.com'], source: 'ConfigFile' }]);
    expect(await dbGet('permission_groups', editor.headers)).toBe(403);
  });

  it('evaluates object selectors by name, labels and type against the resource a request is about', async () => {
    const [result] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: viewer-edits-prod-configs}
spec:
  subject: {person: sre-viewer@example.com}
  actions: [update]
  object:
    configs:
      - {name: "prod-*", labelSelector: "env=prod", types: [Kubernetes::Deployment]}
`);
    expect(result).toMatchObject({ ok: true, outcome: { action: 'created' } });
    const target = { kind: 'config', id: '00000000-0000-4000-8000-000000000001', name: 'prod-api', type: 'Kubernetes::Deployment', labels: { env: 'prod' } };
    expect(await check({ object: 'config_scrapers', action: 'update', target }, viewer.headers)).toEqual({ allowed: true, reason: 'permission' });
    expect(await check({ object: 'config_scrapers', action: 'update', target: { ...target, labels: { env: 'dev' } } }, viewer.headers)).toEqual({ allowed: false, reason: 'none' });
    expect(await check({ object: 'config_scrapers', action: 'update', target: { ...target, name: 'dev-api' } }, viewer.headers)).toEqual({ allowed: false, reason: 'none' });
    // A request that does not say the name cannot be allowed by a selector that needs it.
    expect(await check({ object: 'config_scrapers', action: 'update', target: { kind: 'config', id: target.id } }, viewer.headers)).toEqual({ allowed: false, reason: 'none' });
    // Without a resource, the selector speaks about nothing: the list stays as the role says.
    expect(await check({ object: 'config_scrapers', action: 'update' }, viewer.headers)).toEqual({ allowed: false, reason: 'none' });
  });

  it('re-applying updates the same row; file rows stay out of reach of /api/db writes', async () => {
    const text = (description: string) => `
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: tags-for-viewer}
spec:
  description: ${description}
  subject: {person: sre-viewer@example.com}
  actions: [read]
  object: {}
  tags: {cluster: demo}
`;
    const [first] = await apply(text('first'));
    const [second] = await apply(text('second'));
    expect(first).toMatchObject({ ok: true, outcome: { action: 'created' } });
    expect(second).toMatchObject({ ok: true, outcome: { action: 'updated', id: first?.outcome?.id } });
    const { rows } = await t.db.pool.query("SELECT description, object, tags FROM permissions WHERE name = 'tags-for-viewer' AND deleted_at IS NULL");
    expect(rows).toEqual([{ description: 'second', object: '*', tags: { cluster: 'demo' } }]);
    const id = first?.outcome?.id ?? '';
    const res = await t.app.inject({ method: 'DELETE', url: `/api/db/permissions?id=eq.${id}`, headers: t.adminHeaders });
    expect(res.statusCode).toBeLessThan(300);
    expect((await t.db.pool.query('SELECT 1 FROM permissions WHERE id = $1 AND deleted_at IS NULL', [id])).rowCount).toBe(1);
  });

  it('reports upstream fields it does not run as warnings, and refuses only invalid documents', async () => {
    const [warned, bad, nobody, empty] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: mixed}
spec:
  subject: {person: foo@bar.com, team: sre, notification: mc/check-alerts}
  actions: [read, "mcp:use"]
  object:
    playbooks: [{name: restart-pod}]
    configs: [{name: "*", health: unhealthy}]
    views: [{name: dashboard, namespace: mc}]
    scopes: [{name: prod}]
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: bad}
spec:
  subject: {}
  object: {configs: [{labelSelector: "env in (prod"}]}
  deny: maybe
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: nobody}
spec: {subject: {person: ghost@example.com}, actions: [read], object: {global: canaries}}
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: about-nothing}
spec: {subject: {group: editor}, actions: [read], object: {}}
`);
    expect(warned?.ok).toBe(true);
    expect(warned?.outcome?.warnings).toEqual([
      'spec.object.configs[0].health: not known for a request here; this selector can deny but never allow',
      'spec.object: selectors over configs and playbooks and views together (such as running a playbook on a config) cannot be evaluated here; this permission allows nothing',
      'spec.object.scopes[0]: no scope "default/prod" in this console yet; saved as waiting for it: nothing is selected through it until the Scope exists',
      'spec.actions: "mcp:use" is not an action of this console; it allows or denies nothing here',
      'spec.subject.team: a permission has one subject; person is used, team is ignored',
      'spec.subject.notification: a permission has one subject; person is used, notification is ignored',
    ]);
    expect(bad?.ok).toBe(false);
    expect(bad?.errors).toEqual(
      expect.arrayContaining([
        'spec.object.configs[0].labelSelector: is not a label selector (such as "app=web,tier!=db")',
        'spec.deny: must be true or false',
        'spec.actions: is required: at least one action (read, update, playbook:run, …)',
        'spec.subject: is required: a person, team, group, notification or playbook',
      ]),
    );
    // A person without an account yet is waited for (waiting-scopes-plugins.int.test.ts), not refused.
    expect(nobody).toMatchObject({ ok: true, errors: [] });
    expect(empty?.errors).toEqual([
      'spec.object: name what the permission is about: global, configs, components, playbooks, connections, views, scopes or mcp (or give tags or agents)',
    ]);
  });

  it('applies from the watched folder with source ConfigFile', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-permissions-'));
    try {
      await fs.writeFile(
        path.join(dir, 'rbac.yaml'),
        [
          'apiVersion: mission-control.flanksource.com/v1',
          'kind: PermissionGroup',
          'metadata: {name: everyone}',
          'spec: {people: ["*"]}',
          '---',
          'apiVersion: mission-control.flanksource.com/v1',
          'kind: Permission',
          'metadata: {name: everyone-runs-playbooks}',
          'spec: {subject: {group: everyone}, actions: ["playbook:run"], object: {playbooks: [{name: "*"}]}}',
        ].join('\n'),
      );
      const folder = await watchResourcesFolder(dir, { pool: t.db.pool, kinds, log, pollMs: 60_000 });
      await folder.stop();
      const { rows } = await t.db.pool.query("SELECT object, subject, source FROM permissions WHERE name = 'everyone-runs-playbooks'");
      expect(rows).toEqual([{ object: 'playbooks', subject: 'everyone', source: 'ConfigFile' }]);
      expect(await check({ object: 'playbooks', action: 'playbook:run' }, viewer.headers)).toEqual({ allowed: true, reason: 'permission' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
