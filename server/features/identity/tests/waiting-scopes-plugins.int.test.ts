import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';

/**
 * Permissions that name a person, team or scope before it exists, the Scope and Plugin kinds, plugin and
 * playbook subjects, the `mcp` object and connection selectors by type (fixtures/compat/*.yaml, our own,
 * written from Mission Control's types; docs/RESOURCES.md).
 */
const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const fixture = (name: string) => readFile(path.join(import.meta.dirname, 'fixtures', 'compat', name), 'utf8');

let t: TestApp;
let bystander: { id: string; headers: Record<string, string> };

async function apply(text: string, file = 'test.yaml') {
  return applyDocuments(t.db.pool, kinds, [{ file, text }], 'ConfigFile', log);
}

/** What the server decides for a person (an admin asking for them, as the Permissions page's check does). */
async function decideFor(personId: string, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/rbac/check', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ person_id: personId, ...body }) });
  expect(res.statusCode, res.body).toBe(200);
  const json: { allowed: boolean; reason: string } = res.json();
  return { allowed: json.allowed, reason: json.reason };
}

async function row(name: string) {
  const { rows } = await t.db.pool.query('SELECT subject_type, subject, person_id, team_id, object, object_selector, waiting_for, error FROM permissions WHERE name = $1 AND deleted_at IS NULL', [name]);
  return rows[0];
}

const billingConfig = { kind: 'config', id: '00000000-0000-4000-8000-0000000000b1', name: 'billing-api' };

beforeAll(async () => {
  t = await createTestApp();
  bystander = await t.userWith(['viewer'], 'bystander@example.com');
});

afterAll(async () => {
  await t?.close();
});

describe('Permissions naming what does not exist yet', () => {
  it('apply with a warning naming the reference, are shown waiting, and grant nothing to anyone', async () => {
    const results = await apply(await fixture('permissions-waiting.yaml'), 'permissions-waiting.yaml');
    expect(results.map((result) => [result.name, result.ok, result.errors])).toEqual([
      ['late-joiner-edits-billing-configs', true, []],
      ['release-crew-runs-playbooks', true, []],
      ['log-viewer-reads-cluster', true, []],
      ['archiver-reads-buckets', true, []],
      ['auditor-reads-connections', true, []],
      ['late-joiner-uses-mcp', true, []],
    ]);
    const warnings = results.map((result) => result.outcome?.warnings ?? []);
    expect(warnings[0]).toEqual([
      'spec.subject.person: no person "late.joiner@example.com" in this console yet (by id, email or name); saved as waiting for them: it grants nothing until the account exists, then applies without re-applying',
    ]);
    expect(warnings[1]).toEqual([
      'spec.subject.team: no team "release-crew" in this console yet; saved as waiting for it: it grants nothing until the team exists, then applies without re-applying',
    ]);
    expect(warnings[2]).toEqual(['spec.subject.plugin: plugins are not run here (kind Plugin); kept, it acts for nobody']);
    expect(warnings[3]).toEqual([
      "spec.object.connections[0].type: not a field of Mission Control's resource selector (types is); read as types: [s3]",
      "spec.subject.playbook: a playbook's own permissions are not evaluated here: its runs act with their author's permissions and capabilities (docs/SECURITY.md); kept, it grants nothing",
    ]);
    expect(warnings[4]).toEqual([
      "spec.subject.user: not a subject of Mission Control's Permission (one of person, team, notification, group, playbook, plugin, canary, scraper, topology); ignored",
      'spec.subject: names no subject this console knows; saved, this permission grants nothing',
    ]);
    expect(warnings[5]).toEqual([
      'spec.object.mcp: the MCP server (/api/mcp) is open to every signed-in person here, each tool checked against the resource it reads; kept, this permission changes nothing',
      'spec.actions: "mcp:use" is not an action of this console; it allows or denies nothing here',
      'spec.subject.person: no person "late.joiner@example.com" in this console yet (by id, email or name); saved as waiting for them: it grants nothing until the account exists, then applies without re-applying',
    ]);
    expect(await row('late-joiner-edits-billing-configs')).toMatchObject({
      subject_type: 'person',
      subject: 'late.joiner@example.com',
      person_id: null,
      waiting_for: [{ path: 'spec.subject.person', kind: 'person', ref: 'late.joiner@example.com' }],
    });
    expect(await row('auditor-reads-connections')).toMatchObject({ subject_type: 'none', subject: 'user: auditor', error: 'spec.subject: names no subject this console knows; saved, this permission grants nothing' });
    expect(await row('log-viewer-reads-cluster')).toMatchObject({ subject_type: 'plugin', subject: 'billing/log-viewer' });
    expect(await row('late-joiner-uses-mcp')).toMatchObject({ object: 'mcp' });
    // The Permissions page reads what a row waits for.
    const listed = await t.app.inject({ method: 'GET', url: '/api/db/permissions_summary?select=name,waiting_for&namespace=eq.billing&waiting_for=not.is.null&order=name', headers: t.adminHeaders });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual([
      { name: 'late-joiner-edits-billing-configs', waiting_for: [{ path: 'spec.subject.person', kind: 'person', ref: 'late.joiner@example.com' }] },
      { name: 'late-joiner-uses-mcp', waiting_for: [{ path: 'spec.subject.person', kind: 'person', ref: 'late.joiner@example.com' }] },
      { name: 'release-crew-runs-playbooks', waiting_for: [{ path: 'spec.subject.team', kind: 'team', ref: 'release-crew' }] },
    ]);
    // While it waits, no one holds it.
    expect(await decideFor(bystander.id, { object: 'config_scrapers', action: 'update', target: billingConfig })).toEqual({ allowed: false, reason: 'none' });
    expect(await decideFor(bystander.id, { object: 'playbooks', action: 'playbook:run' })).toEqual({ allowed: false, reason: 'none' });
  });

  it('the account and the team, once created, hold them on their next request without re-applying', async () => {
    const late = await t.userWith(['viewer'], 'Late.Joiner@example.com');
    expect(await row('late-joiner-edits-billing-configs')).toMatchObject({ subject: late.id, person_id: late.id, waiting_for: null });
    expect(await decideFor(late.id, { object: 'config_scrapers', action: 'update', target: billingConfig })).toEqual({ allowed: true, reason: 'permission' });
    expect(await decideFor(late.id, { object: 'config_scrapers', action: 'update', target: { ...billingConfig, name: 'shop-api' } })).toEqual({ allowed: false, reason: 'none' });
    expect(await decideFor(bystander.id, { object: 'config_scrapers', action: 'update', target: billingConfig })).toEqual({ allowed: false, reason: 'none' });

    const crew = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: release-crew}
spec: {members: [bystander@example.com]}
`);
    expect(crew.map((result) => result.errors)).toEqual([[]]);
    const team = (await t.db.pool.query<{ id: string }>("SELECT id FROM teams WHERE name = 'release-crew'")).rows[0]?.id;
    expect(await row('release-crew-runs-playbooks')).toMatchObject({ subject: team, team_id: team, waiting_for: null });
    expect(await decideFor(bystander.id, { object: 'playbooks', action: 'playbook:run' })).toEqual({ allowed: true, reason: 'permission' });
  });

  it('a connection selector by type selects connections of that type', async () => {
    const [result] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: bystander-reads-buckets, namespace: billing}
spec:
  subject: {person: bystander@example.com}
  actions: [read]
  object:
    connections: [{type: s3, namespace: billing}]
`);
    expect(result?.ok).toBe(true);
    const bucket = { kind: 'connection', id: '00000000-0000-4000-8000-0000000000c1', name: 'invoices', namespace: 'billing', type: 's3' };
    expect(await decideFor(bystander.id, { object: 'connections', action: 'read', target: bucket })).toEqual({ allowed: true, reason: 'permission' });
    expect(await decideFor(bystander.id, { object: 'connections', action: 'read', target: { ...bucket, type: 'postgres' } })).toEqual({ allowed: false, reason: 'none' });
  });
});

describe('kind Scope', () => {
  it('applies scopes; a permission over a scope selects what its targets select; one over a missing scope waits for it', async () => {
    const sre = await t.userWith(['viewer'], 'sre@example.com');
    const team = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: platform-sre}
spec: {members: [sre@example.com]}
`);
    expect(team.map((result) => result.errors)).toEqual([[]]);
    const results = await apply(await fixture('scopes.yaml'), 'scopes.yaml');
    expect(results.map((result) => [result.kind, result.name, result.ok, result.errors])).toEqual([
      ['Scope', 'eu-prod-configs', true, []],
      ['Scope', 'restart-playbooks', true, []],
      ['Scope', 'edge-everything', true, []],
      ['Permission', 'sre-updates-eu-prod', true, []],
      ['Permission', 'sre-runs-restarts', true, []],
      ['Permission', 'sre-updates-us-prod', true, []],
    ]);
    expect(results.slice(0, 5).map((result) => result.outcome?.warnings ?? [])).toEqual([[], [], [], [], []]);
    expect(results[5]?.outcome?.warnings).toEqual([
      'spec.object.scopes[0]: no scope "platform/us-prod-configs" in this console yet; saved as waiting for it: nothing is selected through it until the Scope exists',
    ]);
    expect(await row('sre-updates-eu-prod')).toMatchObject({ object_selector: { scopes: [{ name: 'eu-prod-configs', namespace: 'platform' }] }, waiting_for: null });
    expect(await row('sre-updates-us-prod')).toMatchObject({ waiting_for: [{ path: 'spec.object.scopes[0]', kind: 'scope', ref: 'platform/us-prod-configs' }] });

    const eu = { kind: 'config', id: '00000000-0000-4000-8000-0000000000e1', name: 'api', tags: { cluster: 'prod', region: 'eu' } };
    const us = { ...eu, id: '00000000-0000-4000-8000-0000000000e2', tags: { cluster: 'prod', region: 'us' } };
    expect(await decideFor(sre.id, { object: 'config_scrapers', action: 'update', target: eu })).toEqual({ allowed: true, reason: 'permission' });
    expect(await decideFor(bystander.id, { object: 'config_scrapers', action: 'update', target: eu })).toEqual({ allowed: false, reason: 'none' });
    const playbook = { kind: 'playbook', id: '00000000-0000-4000-8000-0000000000f1', name: 'restart-statefulset', namespace: 'platform' };
    expect(await decideFor(sre.id, { object: 'playbooks', action: 'playbook:run', target: playbook })).toEqual({ allowed: true, reason: 'permission' });
    expect(await decideFor(sre.id, { object: 'playbooks', action: 'playbook:run', target: { ...playbook, name: 'drop-database' } })).toEqual({ allowed: false, reason: 'none' });
    // The scope that does not exist yet selects nothing.
    expect(await decideFor(sre.id, { object: 'config_scrapers', action: 'update', target: us })).toEqual({ allowed: false, reason: 'none' });

    // Applying the scope later: no longer waiting, and it selects on the next request.
    const later = await apply(await fixture('scopes-later.yaml'), 'scopes-later.yaml');
    expect(later.map((result) => result.errors)).toEqual([[]]);
    expect(await row('sre-updates-us-prod')).toMatchObject({ waiting_for: null });
    expect(await decideFor(sre.id, { object: 'config_scrapers', action: 'update', target: us })).toEqual({ allowed: true, reason: 'permission' });
    expect(await decideFor(sre.id, { object: 'config_scrapers', action: 'update', target: { ...us, tags: { cluster: 'dev', region: 'us' } } })).toEqual({ allowed: false, reason: 'none' });

    // Changing a scope's targets reaches the next request too.
    const [changed] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Scope
metadata: {name: eu-prod-configs, namespace: platform}
spec:
  targets:
    - config: {tagSelector: "cluster=prod,region=apac"}
`);
    expect(changed?.outcome?.action).toBe('updated');
    expect(await decideFor(sre.id, { object: 'config_scrapers', action: 'update', target: eu })).toEqual({ allowed: false, reason: 'none' });
    const scopes = await t.app.inject({ method: 'GET', url: '/api/db/scopes?select=name,namespace,targets,source&name=eq.eu-prod-configs', headers: t.adminHeaders });
    expect(scopes.json()).toEqual([{ name: 'eu-prod-configs', namespace: 'platform', targets: [{ config: { tagSelector: 'cluster=prod,region=apac' } }], source: 'ConfigFile' }]);
  });

  it('refuses a target that names no kind or two, and warns about fields a Scope does not have', async () => {
    const [bad, warned] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Scope
metadata: {name: confused, namespace: platform}
spec:
  targets:
    - config: {name: a}
      playbook: {name: b}
    - {}
---
apiVersion: mission-control.flanksource.com/v1
kind: Scope
metadata: {name: loose, namespace: platform}
spec:
  targets:
    - config: {name: "nginx-*", labelSelector: "app=nginx"}
      connection: {name: db}
`);
    expect(bad?.ok).toBe(false);
    expect(bad?.errors).toEqual([
      'spec.targets[0]: exactly one of config, component, playbook, canary, view, global must be given (found config and playbook); spec.targets[1]: exactly one of config, component, playbook, canary, view, global must be given',
    ]);
    expect(warned?.ok).toBe(true);
    expect(warned?.outcome?.warnings).toEqual([
      "spec.targets[0].connection: not a target of Mission Control's Scope (one of config, component, playbook, canary, view, global); ignored",
      'spec.targets[0].config.labelSelector: not a field of a Scope selector (one of agent, namespace, name, tagSelector); ignored',
      'spec.targets[0].config.name: Mission Control matches "nginx-*" as a literal name (only "*" alone is a wildcard); here * matches any text',
    ]);
  });
});

describe('kind Plugin', () => {
  it('is stored with a warning naming the kind, read through /api/db by administrators only; a permission for it acts for nobody', async () => {
    const results = await apply(await fixture('plugins.yaml'), 'plugins.yaml');
    expect(results.map((result) => [result.kind, result.name, result.ok, result.outcome?.action])).toEqual([
      ['Plugin', 'log-viewer', true, 'created'],
      ['Plugin', 'remote-diff', true, 'created'],
      ['Permission', 'log-viewer-invokes-on-pods', true, 'created'],
    ]);
    const notRun = 'kind Plugin: plugins are not run here: nothing is installed or dialled, no tab or operation is offered and no invocation is audited; stored as written';
    expect(results[0]?.outcome?.warnings).toEqual([notRun]);
    expect(results[1]?.outcome?.warnings).toEqual([notRun]);
    expect(results[2]?.outcome?.warnings).toEqual([
      'spec.actions: "invoke:log-viewer:tail" is not an action of this console; it allows or denies nothing here',
      'spec.subject.plugin: plugins are not run here (kind Plugin); kept, it acts for nobody',
    ]);
    const [again] = await apply(await fixture('plugins.yaml'), 'plugins.yaml');
    expect(again?.outcome?.action).toBe('unchanged');
    const listed = await t.app.inject({ method: 'GET', url: '/api/db/plugins?select=name,namespace,spec->>source,source&order=name', headers: t.adminHeaders });
    expect(listed.json()).toEqual([
      { name: 'log-viewer', namespace: 'billing', source: 'ConfigFile' },
      { name: 'remote-diff', namespace: 'billing', source: 'ConfigFile' },
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/db/plugins', headers: bystander.headers })).statusCode).toBe(403);
    const [missing] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Plugin
metadata: {name: nowhere}
spec: {version: "1.0.0"}
`);
    expect(missing?.errors).toEqual(['spec.source: is required (or spec.address for a remote plugin)']);
  });
});
