import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { presetScopes } from '../../../common/rbac';
import { functions, relations } from '../../postgrest/relations';
import { inOrganization } from '../../platform/db/tenant';
import { claimEvents, publish } from '../../platform/jobs/event-queue';
import { readIntegerProperty } from '../../platform/jobs/properties';
import { createLogger } from '../../platform/logger';
import { processKeyring } from '../../platform/secrets';
import { SecretStore } from '../../platform/secrets/store';
import { evaluateIncidentRules } from '../incidents';
import { NotificationEngine } from '../notifications';
import { startOidcApp, type TestIssuer } from '../identity/oidc/testing/issuer';
import { collectIds, probeEveryRelation } from './testing/every-relation';

/**
 * Issue 25: organizations without a backend URL share this server's database, kept apart by row-level
 * security (docs/HOSTED.md "Row-level security"). Two organizations on one console in oidc mode: what one
 * makes through the product is invisible and untouchable to the other, through every /api/db relation and
 * in the database itself, and the rows a worker writes for it stay its own.
 */

let issuer: TestIssuer;
let t: TestApp;
let base: string;
let dir: string;
const org = { acme: '', globex: '' };
const people = { alice: {} as Record<string, string>, bob: {} as Record<string, string> };
const made = { canary: '', check: '', scraper: '', item: '' };

async function call(who: Record<string, string>, method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { accept: 'application/json', ...who, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

function rows(answer: { body: unknown }): Array<Record<string, unknown>> {
  return Array.isArray(answer.body) ? (answer.body as Array<Record<string, unknown>>) : [];
}

async function member(name: string, organizationId: string): Promise<Record<string, string>> {
  // Roles are per organization (issue 35): the person is its organization's admin by their membership.
  const person = await t.userWith(['viewer'], `${name}@example.com`);
  await t.db.pool.query("INSERT INTO organization_members (organization_id, person_id, role, source) VALUES ($1, $2, 'admin', 'console')", [organizationId, person.id]);
  return person.headers;
}

beforeAll(async () => {
  ({ issuer, t, base } = await startOidcApp());
  dir = await mkdtemp(path.join(tmpdir(), 'wk-tenancy-'));
  const { rows: made0 } = await t.db.pool.query<{ id: string; name: string }>("INSERT INTO organizations (name, external_id) VALUES ('Acme', 'org_acme'), ('Globex', 'org_globex') RETURNING id, name");
  org.acme = made0.find((row) => row.name === 'Acme')?.id ?? '';
  org.globex = made0.find((row) => row.name === 'Globex')?.id ?? '';
  people.alice = await member('alice', org.acme);
  people.bob = await member('bob', org.globex);
  // A row of the console itself (no organization): neither organization sees it.
  await t.db.pool.query("INSERT INTO teams (name) VALUES ('console-team')");
});

afterAll(async () => {
  await t?.close();
  await issuer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('organizations sharing one database (row-level security)', () => {
  it('each person works in their only organization', async () => {
    const me = await call(people.alice, 'GET', '/api/auth/whoami');
    expect(me.body).toMatchObject({ organization: { id: org.acme, name: 'Acme', has_backend_url: false } });
  });

  it('Acme makes a canary, runs its check, scrapes a file, and adds a connection and a team through the product', async () => {
    const canary = await call(people.alice, 'POST', '/api/canary/canaries', { name: 'acme-ports', spec: { schedule: '@every 5m', tcp: [{ name: 'acme-db', endpoint: '127.0.0.1:5432' }] } });
    expect(canary.status, JSON.stringify(canary.body)).toBe(201);
    made.canary = String((canary.body as { id: string }).id);
    const checks = rows(await call(people.alice, 'GET', `/api/db/checks?canary_id=eq.${made.canary}&select=id`));
    made.check = String(checks[0]?.id ?? '');
    expect(made.check).not.toBe('');
    const ran = await call(people.alice, 'POST', `/api/canary/run/check/${made.check}`);
    expect(ran.status, JSON.stringify(ran.body)).toBeLessThan(300);

    const file = path.join(dir, 'things.json');
    await writeFile(file, JSON.stringify([{ id: 'acme-1', type: 'Acme::Thing', name: 'acme-thing' }]));
    const scraper = await call(people.alice, 'POST', '/api/catalog/scrapers', { name: 'acme-files', spec: { schedule: '@never', file: [{ type: '$.type', id: '$.id', name: '$.name', paths: [file] }] } });
    expect(scraper.status, JSON.stringify(scraper.body)).toBe(201);
    made.scraper = String((scraper.body as { id: string }).id);
    const scraped = await call(people.alice, 'POST', `/api/config/run/${made.scraper}`);
    expect(scraped.status, JSON.stringify(scraped.body)).toBe(200);
    const items = rows(await call(people.alice, 'GET', '/api/db/config_items?name=eq.acme-thing&select=id'));
    made.item = String(items[0]?.id ?? '');
    expect(made.item).not.toBe('');

    const connection = await call(people.alice, 'POST', '/api/connections', { name: 'acme-db', type: 'postgres', url: 'postgres://db.acme.internal:5432/acme', username: 'acme', password: 'acme-secret' });
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    const team = await call(people.alice, 'POST', '/api/db/teams', { name: 'acme-team' });
    expect(team.status, JSON.stringify(team.body)).toBe(201);

    // Acme sees its own rows, not the console's.
    const teams = rows(await call(people.alice, 'GET', '/api/db/teams?select=name')).map((row) => row.name);
    expect(teams).toEqual(['acme-team']);
    const statuses = rows(await call(people.alice, 'GET', `/api/db/check_statuses?check_id=eq.${made.check}&select=status`));
    expect(statuses.length).toBe(1);
    // The rows carry Acme's organization in the database.
    const { rows: owned } = await t.db.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM canaries WHERE organization_id = $1) + (SELECT count(*) FROM checks WHERE organization_id = $1)
            + (SELECT count(*) FROM check_statuses WHERE organization_id = $1) + (SELECT count(*) FROM config_items WHERE organization_id = $1)
            + (SELECT count(*) FROM connections WHERE organization_id = $1) + (SELECT count(*) FROM teams WHERE organization_id = $1) AS n`,
      [org.acme],
    );
    expect(Number(owned[0]?.n)).toBeGreaterThanOrEqual(6);
  });

  it('Globex reads, changes and deletes none of it through any /api/db relation', async () => {
    const victimIds = await inOrganization(org.acme, () => collectIds(t.db.pool));
    const result = await probeEveryRelation({ baseUrl: base, headers: people.bob, victimIds, victimStrings: ['acme-ports', 'acme-thing', 'acme-team', 'db.acme.internal'] });
    expect(result.violations).toEqual([]);
    // Every relation and function /api/db serves was asked, and the probe had Acme ids for many of them.
    expect(result.probed.length).toBe(relations.length + functions.length);
    expect(result.withVictimIds.length).toBeGreaterThanOrEqual(8);
    expect(result.withVictimIds).toEqual(expect.arrayContaining(['canaries', 'checks', 'check_statuses', 'config_items', 'config_scrapers', 'teams']));
    // Acme's rows are all still there, unchanged.
    const canaries = rows(await call(people.alice, 'GET', `/api/db/canaries?id=eq.${made.canary}&select=name`));
    expect(canaries).toEqual([{ name: 'acme-ports' }]);
    // Globex sees nothing at all of what exists so far (it made nothing).
    expect(rows(await call(people.bob, 'GET', '/api/db/teams?select=name'))).toEqual([]);
    expect(rows(await call(people.bob, 'GET', '/api/db/config_items?select=id'))).toEqual([]);
  });

  it('the feature routes refuse Acme ids to Globex too', async () => {
    for (const url of [`/api/canary/run/check/${made.check}`, `/api/config/run/${made.scraper}`]) {
      const answer = await call(people.bob, 'POST', url);
      expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(404);
    }
    const canary = await call(people.bob, 'GET', `/api/canary/canaries/${made.canary}`);
    expect(canary.status).toBe(404);
  });

  it('an agent made in Acme gets an Acme token; what it pushes lands in Acme and Globex never sees it', async () => {
    const generated = await call(people.alice, 'POST', '/api/agent/generate', { name: 'acme-edge' });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const { access_token: token, person_id: agentPerson } = generated.body as { access_token: string; person_id: string };
    const { rows: tokens } = await t.db.pool.query<{ organization_id: string }>('SELECT organization_id FROM access_tokens WHERE person_id = $1', [agentPerson]);
    expect(tokens.map((row) => row.organization_id)).toEqual([org.acme]);
    const heartbeat = await call({ authorization: `Bearer ${token}` }, 'POST', '/api/agent/push', { agent: { name: 'acme-edge' } });
    expect(heartbeat.status, JSON.stringify(heartbeat.body)).toBe(200);
    expect(rows(await call(people.alice, 'GET', '/api/db/agents_summary?name=eq.acme-edge&select=name')).length).toBe(1);
    expect(rows(await call(people.bob, 'GET', '/api/db/agents_summary?name=eq.acme-edge&select=name'))).toEqual([]);
  });

  it('Globex may use the names Acme uses (a team, a canary, a property) without touching Acme\'s', async () => {
    const team = await call(people.bob, 'POST', '/api/db/teams', { name: 'acme-team' });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const canary = await call(people.bob, 'POST', '/api/canary/canaries', { name: 'acme-ports', spec: { schedule: '@every 5m', tcp: [{ name: 'globex-db', endpoint: '127.0.0.1:5432' }] } });
    expect(canary.status, JSON.stringify(canary.body)).toBe(201);
    const upsert = (who: Record<string, string>, value: string) =>
      fetch(`${base}/api/db/properties?on_conflict=name`, {
        method: 'POST',
        headers: { ...who, 'content-type': 'application/json', prefer: 'resolution=merge-duplicates,return=representation' },
        body: JSON.stringify({ name: 'tenancy.flag', value }),
      });
    for (const [who, value] of [[people.alice, 'acme'], [people.bob, 'globex'], [people.bob, 'globex-2']] as const) {
      const answer = await upsert(who, value);
      expect(answer.status, await answer.clone().text()).toBeLessThan(300);
    }
    const flag = async (who: Record<string, string>) => rows(await call(who, 'GET', '/api/db/properties?name=eq.tenancy.flag&select=value')).map((row) => row.value);
    expect(await flag(people.alice)).toEqual(['acme']);
    expect(await flag(people.bob)).toEqual(['globex-2']);
    // Inside one organization a name is still unique.
    const again = await call(people.bob, 'POST', '/api/db/teams', { name: 'ACME-team' });
    expect(again.status).toBe(409);
    expect(rows(await call(people.alice, 'GET', '/api/db/teams?select=name')).map((row) => row.name)).toEqual(['acme-team']);
  });

  it('kubectl (/api/kubernetes) and MCP (/api/mcp and /mcp) with a Globex token show nothing of Acme', async () => {
    const tokenOf = async (who: Record<string, string>, name: string): Promise<Record<string, string>> => {
      const made = await call(who, 'POST', '/api/auth/create_token', { name, scope: presetScopes('Admin') });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return { authorization: `Bearer ${(made.body as { payload: { token: string } }).payload.token}` };
    };
    const acme = await tokenOf(people.alice, 'alice-cli');
    const globex = await tokenOf(people.bob, 'bob-cli');
    const canaries = (who: Record<string, string>) => call(who, 'GET', '/api/kubernetes/apis/canaries.flanksource.com/v1/canaries');
    expect(JSON.stringify((await canaries(acme)).body)).toContain(made.canary);
    const seen = await canaries(globex);
    expect(seen.status).toBe(200);
    // Globex has its own canary of that name by now (the test above), never Acme's.
    expect(JSON.stringify(seen.body)).not.toContain(made.canary);
    const search = async (who: Record<string, string>, url: string): Promise<string> => {
      const answer = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { ...who, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_resources', arguments: { query: 'acme' } } }),
      });
      expect(answer.status, url).toBe(200);
      return answer.text();
    };
    for (const url of ['/api/mcp', '/mcp']) {
      expect(await search(acme, url), url).toContain('acme-thing');
      const answer = await search(globex, url);
      expect(answer, url).not.toContain('acme-thing');
      expect(answer, url).not.toContain('acme-db');
    }
  });

  it('in the database, the tenant role of one organization cannot read, change or write into the other', async () => {
    const pool = t.db.pool;
    await inOrganization(org.globex, async () => {
      expect((await pool.query('SELECT id FROM canaries WHERE id = $1', [made.canary])).rowCount).toBe(0);
      expect((await pool.query("UPDATE canaries SET name = 'taken' WHERE id = $1", [made.canary])).rowCount).toBe(0);
      expect((await pool.query('DELETE FROM config_items WHERE id = $1', [made.item])).rowCount).toBe(0);
      await expect(pool.query("INSERT INTO teams (name, organization_id) VALUES ('planted', $1)", [org.acme])).rejects.toThrow(/row-level security/);
      const { rows: role } = await pool.query<{ current_user: string }>('SELECT current_user');
      expect(role[0]?.current_user).toBe('watchkeeper_tenant');
    });
    // Outside any organization the connection is the server's own user again, and sees everything.
    const { rows: back } = await pool.query<{ current_user: string; n: number }>('SELECT current_user, (SELECT count(*)::int FROM teams) AS n');
    expect(back[0]?.current_user).not.toBe('watchkeeper_tenant');
    expect(back[0]?.n).toBe(3); // the console's, Acme's and Globex's
  });

  it('Globex cannot file its rows under Acme\'s (a foreign key naming an Acme id answers as for an id that does not exist)', async () => {
    const pool = t.db.pool;
    const { rows: found } = await pool.query<{ team: string; bob: string }>(
      "SELECT (SELECT id FROM teams WHERE name = 'acme-team' AND organization_id = $1) AS team, (SELECT id FROM people WHERE email = 'bob@example.com') AS bob",
      [org.acme],
    );
    const acmeTeam = String(found[0]?.team);
    const bob = String(found[0]?.bob);
    const joined = await call(people.bob, 'POST', '/api/db/team_members', { team_id: acmeTeam, person_id: bob });
    const nowhere = await call(people.bob, 'POST', '/api/db/team_members', { team_id: randomUUID(), person_id: bob });
    expect(joined.status, JSON.stringify(joined.body)).toBe(409);
    expect(nowhere.status, JSON.stringify(nowhere.body)).toBe(409);
    const shape = (body: unknown) => String((body as { message?: string }).message);
    expect(shape(joined.body)).toBe(shape(nowhere.body));
    expect(shape(joined.body)).toMatch(/violates foreign key constraint "team_members_team_id_fkey"/);
    expect((await pool.query('SELECT 1 FROM team_members WHERE team_id = $1', [acmeTeam])).rowCount).toBe(0);

    await inOrganization(org.globex, async () => {
      await expect(pool.query("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'planted', 'tcp', 'planted')", [made.canary])).rejects.toThrow(/foreign key/);
      // Moving its own row under Acme's is refused the same way.
      const { rows: own } = await pool.query<{ id: string }>("INSERT INTO canaries (name, namespace, spec) VALUES ('globex-own', 'default', '{}') RETURNING id");
      const { rows: check } = await pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'globex-check', 'tcp', 'globex-check') RETURNING id", [own[0]?.id]);
      await expect(pool.query('UPDATE checks SET canary_id = $1 WHERE id = $2', [made.canary, check[0]?.id])).rejects.toThrow(/foreign key/);
      await pool.query('DELETE FROM checks WHERE id = $1', [check[0]?.id]);
      await pool.query('DELETE FROM canaries WHERE id = $1', [own[0]?.id]);
    });
    // Acme's check has no planted sibling.
    expect((await pool.query("SELECT 1 FROM checks WHERE canary_id = $1 AND name = 'planted'", [made.canary])).rowCount).toBe(0);
    // A worker outside any scope still writes its parent's rows (the check applies to an organization's work only).
    const { rows: worker } = await pool.query<{ organization_id: string }>("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'worker-made', 'tcp', 'worker-made') RETURNING organization_id", [made.canary]);
    expect(worker[0]?.organization_id).toBe(org.acme);
    await pool.query("DELETE FROM checks WHERE canary_id = $1 AND name = 'worker-made'", [made.canary]);
  });

  it('names resolve in their own organization: a connection and a setting of the same name in each, none for the console', async () => {
    const pool = t.db.pool;
    await inOrganization(org.acme, () => pool.query("INSERT INTO connections (name, type, url) VALUES ('same-name', 'http', 'https://acme.example.com')"));
    await inOrganization(org.globex, () => pool.query("INSERT INTO connections (name, type, url) VALUES ('same-name', 'http', 'https://globex.example.com')"));
    await inOrganization(org.acme, () => pool.query("INSERT INTO properties (name, value) VALUES ('job_history.retention_days', '3')"));
    try {
      // One store for the whole process, as the server keeps it: each organization's lookup is its own entry.
      const store = new SecretStore(pool, processKeyring());
      expect((await inOrganization(org.acme, () => store.connection('default', 'same-name')))?.url).toBe('https://acme.example.com');
      expect((await inOrganization(org.globex, () => store.connection('default', 'same-name')))?.url).toBe('https://globex.example.com');
      // The console's own work (no organization) finds neither, nor Acme's setting.
      expect(await store.connection('default', 'same-name')).toBeUndefined();
      const property = { name: 'job_history.retention_days', defaultValue: 30, min: 1, max: 3650 };
      expect((await readIntegerProperty(pool, property)).value).toBe(30);
      expect((await inOrganization(org.acme, () => readIntegerProperty(pool, property))).value).toBe(3);
    } finally {
      await pool.query("DELETE FROM connections WHERE name = 'same-name'");
      await pool.query("DELETE FROM properties WHERE name = 'job_history.retention_days'");
    }
  });

  it('public webhooks work in their organization: a check\'s post raises an Acme event, a playbook\'s call is authenticated with Acme\'s secret', async () => {
    const pool = t.db.pool;
    const canary = await call(people.alice, 'POST', '/api/canary/canaries', { name: 'acme-hooks', spec: { webhook: [{ name: 'acme-hook', token: 'hook-token' }] } });
    expect(canary.status, JSON.stringify(canary.body)).toBe(201);
    const hook = String(rows(await call(people.alice, 'GET', `/api/db/checks?canary_id=eq.${String((canary.body as { id: string }).id)}&select=id`))[0]?.id);
    const posted = await fetch(`${base}/webhook/${hook}?token=hook-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'unhealthy', message: 'disk full' }) });
    expect(posted.status, await posted.clone().text()).toBe(200);
    const { rows: events } = await pool.query<{ organization_id: string | null }>("SELECT organization_id FROM event_queue WHERE name = 'check.failed' AND properties->>'check_id' = $1", [hook]);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.organization_id === org.acme)).toBe(true);

    expect((await call(people.alice, 'POST', '/api/secrets', { name: 'deploy-hook', data: { password: 'acme-pw' } })).status).toBe(201);
    const playbook = await call(people.alice, 'POST', '/api/playbooks', {
      name: 'acme-deploy',
      spec: {
        on: { webhook: { path: 'acme/deploy', authentication: { basic: { username: { value: 'ci' }, password: { valueFrom: { secretKeyRef: { name: 'deploy-hook', key: 'password' } } } } } } },
        actions: [{ name: 'a', exec: { script: 'true' } }],
      },
    });
    expect(playbook.status, JSON.stringify(playbook.body)).toBe(201);
    const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`ci:${password}`).toString('base64')}` });
    expect((await fetch(`${base}/api/playbook/webhook/acme/deploy`, { method: 'POST', headers: basic('wrong') })).status).toBe(401);
    const started = await fetch(`${base}/api/playbook/webhook/acme/deploy`, { method: 'POST', headers: basic('acme-pw') });
    const run = (await started.json()) as { run_id: string };
    expect(started.status, JSON.stringify(run)).toBe(201);
    const { rows: runs } = await pool.query<{ organization_id: string | null }>('SELECT organization_id FROM playbook_runs WHERE id = $1', [run.run_id]);
    expect(runs[0]?.organization_id).toBe(org.acme);
  });

  it('a worker writing for Acme (no scope) files the row under Acme; Acme events are handled in Acme', async () => {
    const pool = t.db.pool;
    await pool.query('INSERT INTO check_statuses (check_id, time, status) VALUES ($1, now() + interval \'1 minute\', false)', [made.check]);
    const { rows: written } = await pool.query<{ organization_id: string }>('SELECT organization_id FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 1', [made.check]);
    expect(written[0]?.organization_id).toBe(org.acme);

    await inOrganization(org.acme, () => publish(pool, 'tenancy.test', { id: made.check }));
    await publish(pool, 'tenancy.test', { id: 'console' });
    const { events } = await claimEvents(pool, ['tenancy.test'], 'tenancy-test', 10, 60_000);
    const byId = new Map(events.map((event) => [String(event.properties.id), event.organizationId]));
    expect(byId.get(made.check)).toBe(org.acme);
    expect(byId.get('console')).toBeUndefined();
  });

  it('incident rules look at their own organization only: Globex\'s catch-all rule opens nothing for Acme\'s failing check', async () => {
    for (const [who, name] of [[people.alice, 'acme-all'], [people.bob, 'globex-all']] as const) {
      const rule = await call(who, 'POST', '/api/incident/rules', { name, spec: { checks: [{ name: '*' }], template: { title: '{{name}} is failing', severity: 'high' } } });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    }
    // Acme's check fails (its latest result, written by the worker test above, failed; the runner marks it so).
    await t.db.pool.query("UPDATE checks SET status = 'unhealthy' WHERE id = $1", [made.check]);
    await evaluateIncidentRules(t.db.pool, createLogger('silent'));
    const { rows: opened } = await t.db.pool.query<{ organization: string; title: string }>(
      'SELECT o.name AS organization, i.title FROM incidents i JOIN organizations o ON o.id = i.organization_id WHERE i.source_id = $1 ORDER BY 1',
      [made.check],
    );
    expect(opened).toEqual([{ organization: 'Acme', title: 'acme-db is failing' }]);
    expect(rows(await call(people.bob, 'GET', '/api/db/incidents?select=title')).map((row) => row.title)).not.toContain('acme-db is failing');
  });

  it('permission rows are their organization\'s: a deny Globex writes for its admins does not reach Acme\'s admins', async () => {
    const pool = t.db.pool;
    await inOrganization(org.globex, () => pool.query("INSERT INTO permissions (subject, subject_type, object, action, deny) VALUES ('admin', 'group', 'database', 'read', true)"));
    try {
      expect((await call(people.bob, 'GET', '/api/db/teams?select=name')).status).toBe(403);
      expect((await call(people.alice, 'GET', '/api/db/teams?select=name')).status).toBe(200);
    } finally {
      await inOrganization(org.globex, () => pool.query("DELETE FROM permissions WHERE subject = 'admin' AND deny"));
    }
    expect((await call(people.bob, 'GET', '/api/db/teams?select=name')).status).toBe(200);
  });

  it('a notification is matched and delivered in its organization: Acme\'s rule sends through Acme\'s connection "hook", not Globex\'s', async () => {
    const received: string[] = [];
    const peer = http.createServer((req, res) => {
      received.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.end('{"ok":true}'));
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
    try {
      // Globex's "hook" first: a lookup by name that ignored the organization would find it.
      for (const [who, path] of [[people.bob, '/globex'], [people.alice, '/acme']] as const) {
        const made = await call(who, 'POST', '/api/connections', { name: 'hook', type: 'generic_webhook', url: `${peerUrl}${path}` });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
      }
      const rule = await call(people.alice, 'POST', '/api/notifications', { name: 'acme-hook', spec: { events: ['check.failed'], to: { connection: 'hook' } } });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      const engine = new NotificationEngine(t.db.pool, createLogger('silent'), { publicUrl: base, retryBaseMillis: 20 });
      const event = { id: randomUUID(), eventId: randomUUID(), name: 'check.failed', properties: { id: made.check }, priority: 0, attempt: 1, maxAttempts: 5, createdAt: new Date() };
      // Globex handles nothing of it (its rules are its own); Acme records one message.
      expect(await inOrganization(org.globex, () => engine.handleEvent(event))).toBe(0);
      expect(await inOrganization(org.acme, () => engine.handleEvent(event))).toBe(1);
      // The sender runs as the server, for every organization.
      for (let round = 0; round < 20 && received.length === 0; round += 1) {
        await engine.sendDue(50);
        if (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(received).toEqual(['/acme']);
    } finally {
      await new Promise<void>((resolve) => peer.close(() => resolve()));
    }
  });

  it('every table holding data is an organization table (a new table must be added in its migration)', async () => {
    const console = ['schema_migrations', 'identities', 'identity_addresses', 'identity_credential_identifiers', 'identity_credentials', 'sessions', 'selfservice_errors', 'selfservice_flows', 'auth_rate_limits', 'organizations', 'organization_members', 'oidc_sessions', 'front_signing_keys', 'platform_admins', 'rbac_version', 'scheduled_jobs', 'job_instances', 'event_consumers', 'check_rollup_epoch'];
    const { rows: tables } = await t.db.pool.query<{ relname: string; rls: boolean; policy: boolean }>(
      `SELECT c.relname, c.relrowsecurity AS rls, EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = 'organization_rows') AS policy
         FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') ORDER BY 1`,
    );
    const unscoped = tables.filter((table) => !console.includes(table.relname) && !(table.rls && table.policy) && table.relname !== 'relation_counts').map((table) => table.relname);
    expect(unscoped).toEqual([]);
    const { rows: views } = await t.db.pool.query<{ viewname: string }>("SELECT c.relname AS viewname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'v' AND NOT coalesce(c.reloptions @> ARRAY['security_invoker=true'], false)");
    expect(views.map((view) => view.viewname)).toEqual([]);
  });
});
