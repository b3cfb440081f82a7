import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { runScraper } from '../run';

/**
 * Access data from a scraper (docs/CATALOG.md, "Access and logins"): a file scraper in config-db's full
 * form stores users, groups, roles, memberships, config_access and logins beside its configs; a second run
 * of the same file adds nothing; an access row no longer reported is ended; bad entries are run errors
 * with their path while the rest is stored; an Application over the configs reports the access and logins.
 */
let t: TestApp;
let root = '';
let file = '';

// Yesterday (UTC) at 10:00 and 11:00: one day bucket, inside a 7-day report range whatever the hour now.
const yesterday = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 1));
const at = (hours: number) => new Date(yesterday.getTime() + hours * 3_600_000).toISOString();

function documents(options: { bobOnStaging: boolean }) {
  return [
    {
      id: 'crm-prod',
      type: 'SaaS::Application',
      name: 'CRM',
      config: { plan: 'enterprise', seats: 40 },
      changes: [
        { external_change_id: 'ev-1', change_type: 'PlanChanged', summary: 'plan upgraded', created_at: at(9) },
        { external_id: 'crm-staging', external_change_id: 'ev-2', change_type: 'PlanChanged', created_at: at(9) },
      ],
      external_users: [
        { name: 'Alice Adams', aliases: ['alice', 'alice@example.com'], email: 'alice@example.com', user_type: 'Member' },
        { name: 'Bob Brown', aliases: ['bob'], user_type: 'Guest' },
      ],
      external_groups: [{ name: 'Sales', aliases: ['sales'], group_type: 'Team' }],
      external_roles: [{ name: 'Admin', aliases: ['crm-admin'], role_type: 'AppRole', description: 'Full control' }],
      external_user_groups: [{ user: 'bob', group: 'sales' }],
      config_access: [
        { external_config_id: { config_type: 'SaaS::Application', external_id: 'crm-prod' }, external_user_aliases: ['alice@example.com'], external_role_aliases: ['crm-admin'] },
        // No config reference: the document's own item.
        { external_group_aliases: ['sales'] },
        { external_config_id: { config_type: 'SaaS::Application', external_id: 'crm-nowhere' }, external_user_aliases: ['alice'] },
        { external_config_id: { config_type: 'SaaS::Application', external_id: 'crm-prod' } },
      ],
      access_logs: [
        { external_user_aliases: ['alice'], created_at: at(10), mfa: true, count: 3, client_ip: '10.1.1.1' },
        { external_user_aliases: ['alice@example.com'], created_at: at(11), mfa: true, client_ip: '10.1.1.1', verb: 'login' },
        // A user only seen in the logs: created with its alias as name.
        { external_user_aliases: ['carol'], created_at: at(12), client_ip: '10.2.2.2', outcome: 'denied' },
        { external_user_aliases: ['alice'], created_at: 'last tuesday' },
      ],
    },
    {
      id: 'crm-staging',
      type: 'SaaS::Application',
      name: 'CRM staging',
      config: { plan: 'trial', seats: 5 },
      config_access: options.bobOnStaging ? [{ external_user_aliases: ['bob'] }] : [],
    },
    // Access data only (no config): no item, its rows name their config.
    {
      external_users: [{ name: 'Dave Doe', aliases: ['dave'] }],
      config_access: [{ external_config_id: { config_type: 'SaaS::Application', external_id: 'crm-prod' }, external_user_aliases: ['dave'] }],
    },
  ];
}

beforeAll(async () => {
  t = await createTestApp();
  root = await mkdtemp(path.join(os.tmpdir(), 'wk-access-'));
  file = path.join(root, 'crm.json');
  await writeFile(file, JSON.stringify(documents({ bobOnStaging: true })));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await t?.close();
});

async function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const response = await t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> & { errors?: string[] } };
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0]!.n;
}

describe('access data from a full-form scraper', () => {
  let scraperId = '';

  it('stores configs, users, groups, roles, memberships, access and logins; bad entries are errors with their path', async () => {
    const created = await call('POST', '/api/catalog/scrapers', {
      name: 'crm-access',
      spec: { schedule: '@every 1h', full: true, file: [{ type: '$.type', id: '$.id', name: '$.name', paths: [file] }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    scraperId = String(created.body.id);
    const run = await call('POST', `/api/config/run/${scraperId}`);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toMatchObject({
      created: 2,
      access: { users: { created: 4 }, groups: { created: 1 }, roles: { created: 1 }, userGroups: 1, access: { created: 4 }, logins: 2 },
    });
    expect(run.body.errors).toEqual([
      expect.stringMatching(/^spec\.file\[0\] \(.*crm\.json\)\.changes\[1\]: names another item \(external_id crm-staging\)/),
      expect.stringMatching(/^spec\.file\[0\] \(.*crm\.json\)\.config_access\[3\]: names no user or group/),
      expect.stringMatching(/^spec\.file\[0\] \(.*crm\.json\)\.access_logs\[3\]\.created_at: "last tuesday" is not a time/),
      expect.stringMatching(/^spec\.file\[0\] \(.*crm\.json\)\.config_access\[2\]: no config item of type SaaS::Application with external id crm-nowhere/),
    ]);

    // The item keeps the document's config, and its changes.
    const { rows: items } = await t.db.pool.query<{ id: string; name: string; config: unknown }>('SELECT id, name, config FROM config_items WHERE scraper_id = $1 ORDER BY name', [scraperId]);
    expect(items.map((item) => [item.name, item.config])).toEqual([['CRM', { plan: 'enterprise', seats: 40 }], ['CRM staging', { plan: 'trial', seats: 5 }]]);
    expect(await count("config_changes WHERE config_id = $1 AND change_type = 'PlanChanged'", [items[0]!.id])).toBe(1);

    const { rows: users } = await t.db.pool.query<{ name: string; aliases: string[]; email: string | null; user_type: string }>(
      'SELECT name, aliases, email, user_type FROM external_users WHERE scraper_id = $1 ORDER BY name',
      [scraperId],
    );
    expect(users).toEqual([
      { name: 'Alice Adams', aliases: ['alice', 'alice@example.com'], email: 'alice@example.com', user_type: 'Member' },
      { name: 'Bob Brown', aliases: ['bob'], email: null, user_type: 'Guest' },
      { name: 'Dave Doe', aliases: ['dave'], email: null, user_type: '' },
      { name: 'carol', aliases: ['carol'], email: null, user_type: '' },
    ]);
    const { rows: access } = await t.db.pool.query<{ config: string; who: string; role: string | null }>(
      `SELECT ci.name AS config, coalesce(u.name, g.name) AS who, r.name AS role FROM config_access a JOIN config_items ci ON ci.id = a.config_id
       LEFT JOIN external_users u ON u.id = a.external_user_id LEFT JOIN external_groups g ON g.id = a.external_group_id LEFT JOIN external_roles r ON r.id = a.external_role_id
       WHERE a.scraper_id = $1 AND a.deleted_at IS NULL ORDER BY 1, 2`,
      [scraperId],
    );
    expect(access).toEqual([
      { config: 'CRM', who: 'Alice Adams', role: 'Admin' },
      { config: 'CRM', who: 'Dave Doe', role: null },
      { config: 'CRM', who: 'Sales', role: null },
      { config: 'CRM staging', who: 'Bob Brown', role: null },
    ]);
    const { rows: logins } = await t.db.pool.query<{ who: string; count: number; mfa: boolean; client_ip: string; outcome: string; verb: string | null; first_observed: Date; created_at: Date }>(
      `SELECT u.name AS who, l.count, l.mfa, l.client_ip, l.outcome, l.verb, l.first_observed, l.created_at FROM config_access_logs l JOIN external_users u ON u.id = l.external_user_id
       WHERE l.scraper_id = $1 ORDER BY u.name`,
      [scraperId],
    );
    expect(logins).toEqual([
      { who: 'Alice Adams', count: 4, mfa: true, client_ip: '10.1.1.1', outcome: 'allowed', verb: 'login', first_observed: new Date(at(10)), created_at: new Date(at(11)) },
      { who: 'carol', count: 1, mfa: false, client_ip: '10.2.2.2', outcome: 'denied', verb: null, first_observed: new Date(at(12)), created_at: new Date(at(12)) },
    ]);
    expect(await count("external_user_groups eg JOIN external_users u ON u.id = eg.external_user_id WHERE u.name = 'Bob Brown'")).toBe(1);
  });

  it('adds nothing when the same file is read again', async () => {
    const before = await Promise.all(['external_users', 'external_groups', 'external_roles', 'external_user_groups', 'config_access', 'config_access_logs'].map((table) => count(table)));
    const run = await call('POST', `/api/config/run/${scraperId}`);
    expect(run.body).toMatchObject({ created: 0, unchanged: 2, access: { users: { created: 0, updated: 0 }, access: { created: 0, unchanged: 4, deleted: 0 }, logins: 0, userGroups: 0 } });
    const after = await Promise.all(['external_users', 'external_groups', 'external_roles', 'external_user_groups', 'config_access', 'config_access_logs'].map((table) => count(table)));
    expect(after).toEqual(before);
    expect(await count('config_access_logs WHERE scraper_id = $1 AND count = 4', [scraperId])).toBe(1);
  });

  it('ends an access row the source no longer reports', async () => {
    await writeFile(file, JSON.stringify(documents({ bobOnStaging: false })));
    const run = await call('POST', `/api/config/run/${scraperId}`);
    expect(run.body).toMatchObject({ access: { access: { created: 0, unchanged: 3, deleted: 1 } } });
    const { rows } = await t.db.pool.query<{ deleted_at: Date | null }>(
      "SELECT a.deleted_at FROM config_access a JOIN external_users u ON u.id = a.external_user_id WHERE u.name = 'Bob Brown'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.deleted_at).not.toBeNull();
  });

  it('shows the access and logins in an Application over those configs', async () => {
    const app = await call('POST', '/api/applications', {
      name: 'crm',
      namespace: 'access-test',
      spec: { type: 'SaaS', mapping: { environments: { Production: [{ types: ['SaaS::Application'], name: 'CRM' }], Staging: [{ types: ['SaaS::Application'], name: 'CRM staging' }] } } },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(201);
    const res = await call('GET', '/api/applications/access-test/crm?from=now-7d');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body as unknown as {
      logins: Array<{ user: { name: string }; config: { name: string }; count: number; mfa: boolean; outcome: string }>;
      access: Array<{ user: { name: string } | null; group: { name: string } | null; role: string | null; config: { name: string }; last_login: string | null }>;
    };
    expect(report.logins.map((login) => [login.user.name, login.config.name, login.count, login.mfa, login.outcome])).toEqual([
      ['carol', 'CRM', 1, false, 'denied'],
      ['Alice Adams', 'CRM', 4, true, 'allowed'],
    ]);
    const holders = report.access.map((row) => [row.user?.name ?? row.group?.name, row.config.name, row.role]);
    expect(holders).toEqual(
      expect.arrayContaining([
        ['Alice Adams', 'CRM', 'Admin'],
        ['Dave Doe', 'CRM', null],
        ['Sales', 'CRM', null],
      ]),
    );
    expect(report.access.find((row) => row.user?.name === 'Alice Adams')?.last_login).not.toBeNull();
  });
});

describe('spec.full', () => {
  it('must be a boolean, named by path', async () => {
    const bad = await call('POST', '/api/catalog/scrapers', { name: 'bad-full', spec: { full: 'yes', file: [{ type: 'X', id: '$.id', paths: [file] }] } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('spec.full');
  });
});

describe('examples/catalog/access-payroll.yaml', () => {
  it('applies without warnings, scrapes without errors, and its application reports the access and logins', async () => {
    const file = 'access-payroll.yaml';
    const text = await readFile(path.join(ROOT, 'examples', 'catalog', file), 'utf8');
    const kinds = features.flatMap((feature) => feature.kinds ?? []);
    const applied = await applyDocuments(t.db.pool, kinds, [{ file, text }], 'ConfigFile', createLogger('silent'));
    expect(applied.map((result) => [result.ok, result.outcome?.warnings ?? []])).toEqual([[true, []], [true, []]]);
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM config_scrapers WHERE name = 'payroll-access' AND deleted_at IS NULL");
    // Relative paths are read from the working directory: the repository, as with `npm start`.
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      for (let run = 0; run < 2; run += 1) {
        const summary = await runScraper(t.db.pool, rows[0]!.id, { log: createLogger('silent') });
        expect(summary.errors).toEqual([]);
      }
    } finally {
      process.chdir(cwd);
    }
    const res = await call('GET', '/api/applications/finance/payroll?from=2026-01-01T00:00:00Z');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body as unknown as {
      logins: Array<{ user: { name: string }; config: { name: string }; count: number; outcome: string }>;
      access: Array<{ user: { name: string } | null; group: { name: string } | null; role: string | null; config: { name: string } }>;
    };
    expect(report.logins.map((login) => [login.user.name, login.config.name, login.count, login.outcome])).toEqual([
      ['Bob Brown', 'Payroll sandbox', 1, 'allowed'],
      ['Chris Contractor', 'Payroll', 1, 'denied'],
      ['Bob Brown', 'Payroll', 1, 'allowed'],
      ['Alice Adams', 'Payroll', 2, 'allowed'],
    ]);
    expect(report.access.map((row) => [row.user?.name ?? row.group?.name, row.config.name, row.role])).toEqual([
      ['Alice Adams', 'Payroll', 'Payroll Admin'],
      ['Bob Brown', 'Payroll sandbox', 'Payroll Admin'],
      ['Chris Contractor', 'Payroll', 'Viewer'],
      ['Finance', 'Payroll', 'Viewer'],
    ]);
  });
});
