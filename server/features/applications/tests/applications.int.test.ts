import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { insertChange, insertItem } from '../../catalog/query/testing';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { chromiumPath } from '../pdf';

/**
 * Applications (docs/APPLICATIONS.md): the kind checked whole (400 with paths), files in Mission Control's
 * format (tests/fixtures/compat: our own, written from the docs; upstream's are read at run time by
 * test/peer-suite/mission-control.int.test.ts, never copied here) and our examples applied, the report over seeded configs, changes, access rows and incidents, and the PDF.
 */

const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const FIXTURES = path.join(ROOT, 'server', 'features', 'applications', 'tests', 'fixtures', 'compat');
const EXAMPLES = path.join(ROOT, 'examples', 'applications');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  // The PDF test prints a page of this server: a small page that loads the report as the browser's caller
  // would and marks itself ready (the real report page is printed by e2e/applications.e2e.test.ts).
  webDist = await mkdtemp(path.join(os.tmpdir(), 'wk-app-web-'));
  // Scripts load from files: the console's Content-Security-Policy allows no inline script.
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html><body><div id="root">loading</div><script src="/report.js"></script></body></html>');
  await writeFile(
    path.join(webDist, 'report.js'),
    `const [, , namespace, name] = location.pathname.split('/');
    const query = new URLSearchParams(location.search);
    const root = document.getElementById('root');
    fetch('/api/applications/' + namespace + '/' + name + '?from=' + encodeURIComponent(query.get('from')) + '&to=' + encodeURIComponent(query.get('to')))
      .then((res) => res.ok ? res.json() : Promise.reject(new Error('HTTP ' + res.status)))
      .then((report) => { root.textContent = 'Report of ' + report.name + ' (' + report.environments.length + ' environments)'; root.dataset.reportState = 'ready'; })
      .catch((error) => { root.textContent = String(error); root.dataset.reportState = 'error'; });`,
  );
  t = await createTestApp({ webDist });
});

afterAll(async () => {
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

async function post(payload: unknown, headers = t.adminHeaders) {
  return t.app.inject({ method: 'POST', url: '/api/applications', payload: payload as Record<string, unknown>, headers });
}

describe('the Application kind', () => {
  it('saves a good spec, with type and description beside it', async () => {
    const res = await post({ name: 'billing', spec: { type: 'Service', description: 'Billing', mapping: { environments: { prod: [{ types: ['Kubernetes::Deployment'], labelSelector: 'app=billing' }] } } } });
    expect(res.statusCode, res.body).toBe(201);
    const { rows } = await t.db.pool.query('SELECT type, description, namespace, source FROM applications WHERE id = $1', [res.json().id]);
    expect(rows[0]).toEqual({ type: 'Service', description: 'Billing', namespace: 'default', source: 'UI' });
  });

  it('refuses a bad spec with every problem by path', async () => {
    const res = await post({
      name: 'broken',
      spec: { type: 7, mapping: { roles: [{ search: 'type=Azure::Group' }], environments: { prod: 'all' } }, sections: [{ title: 'Backups' }] },
    });
    expect(res.statusCode).toBe(400);
    const paths = (res.json().details as Array<{ path: string }>).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['body.spec.type', 'body.spec.mapping.roles[0].role', 'body.spec.mapping.environments.prod']));
    expect(res.body).not.toMatch(/ZodError|stack|SELECT/);
    const section = await post({ name: 'broken', spec: { sections: [{ title: 'Backups' }] } });
    expect(section.statusCode).toBe(400);
    expect(section.json().details).toEqual([expect.objectContaining({ path: 'body.spec.sections[0].viewRef' })]);
  });

  it('guards writes and reads with the views resource', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/applications' })).statusCode).toBe(401);
    const viewer = await t.userWith(['viewer']);
    expect((await post({ name: 'nope', spec: {} }, viewer.headers)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/applications', headers: viewer.headers })).statusCode).toBe(200);
  });

  it("applies files in Mission Control's format unchanged, each field not run named in a warning", async () => {
    const files = (await readdir(FIXTURES)).filter((file) => file.endsWith('.yaml')).sort();
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) expect(await readFile(path.join(FIXTURES, file), 'utf8'), file).not.toMatch(/flanksource\/mission-control|^# Source:/m);
    const warnings: string[] = [];
    for (const file of files) {
      const results = await applyDocuments(t.db.pool, kinds, [{ file, text: await readFile(path.join(FIXTURES, file), 'utf8') }], 'ConfigFile', log);
      for (const result of results) {
        expect(result, file).toMatchObject({ ok: true, kind: 'Application' });
        warnings.push(...(result.outcome?.warnings ?? []));
      }
    }
    expect(warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^spec\.schedule is not run/),
      expect.stringMatching(/^spec\.sections\[1\]\.uiRef is not run/),
    ]));
    const { rows } = await t.db.pool.query("SELECT name, type FROM applications WHERE namespace = 'harbour' ORDER BY name");
    expect(rows).toEqual([{ name: 'ledger-suite', type: '' }, { name: 'tide-pager', type: 'Platform' }]);
    const other = await t.db.pool.query("SELECT name, type FROM applications WHERE namespace = 'fleet'");
    expect(other.rows).toEqual([{ name: 'buoy-tracker', type: 'Microservice' }]);
  });

  it('applies every example without a warning', async () => {
    if (!existsSync(EXAMPLES)) return;
    for (const file of (await readdir(EXAMPLES)).filter((name) => name.endsWith('.yaml'))) {
      const results = await applyDocuments(t.db.pool, kinds, [{ file, text: await readFile(path.join(EXAMPLES, file), 'utf8') }], 'ConfigFile', log);
      for (const result of results) {
        expect(result, file).toMatchObject({ ok: true, errors: [] });
        expect(result.outcome?.warnings ?? [], file).toEqual([]);
      }
    }
  });
});

describe('the report', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const pool = t.db.pool;
    ids.api = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'payments-api', labels: { app: 'payments' }, tags: { cluster: 'prod' }, health: 'healthy' });
    ids.worker = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'payments-worker', labels: { app: 'payments' }, tags: { cluster: 'prod' }, health: 'unhealthy' });
    ids.staging = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'payments-api', labels: { app: 'payments' }, tags: { cluster: 'staging' }, health: 'warning' });
    ids.other = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'search-api', labels: { app: 'search' }, tags: { cluster: 'prod' } });
    ids.db = await insertItem(pool, { type: 'AWS::RDS::DBInstance', name: 'payments-db', tags: { account: '12345' } });
    ids.sso = await insertItem(pool, { type: 'Azure::EnterpriseApplication', name: 'Payments', tags: { account: '12345' } });
    ids.admins = await insertItem(pool, { type: 'Azure::Group', name: 'payments-admins' });
    await insertChange(pool, ids.api, { change_type: 'diff', summary: 'image bumped', ago: 2 * HOUR });
    await insertChange(pool, ids.worker, { change_type: 'BackOff', severity: 'high', ago: 40 * DAY });
    await insertChange(pool, ids.other, { change_type: 'diff', summary: 'not ours', ago: HOUR });

    const user = async (name: string, email: string) => (await pool.query<{ id: string }>('INSERT INTO external_users (name, email, user_type) VALUES ($1, $2, $3) RETURNING id', [name, email, 'User'])).rows[0]!.id;
    ids.alice = await user('Alice Adams', 'alice@example.com');
    ids.bob = await user('Bob Brown', 'bob@example.com');
    ids.role = (await pool.query<{ id: string }>("INSERT INTO external_roles (name, role_type) VALUES ('Owner', 'AzureRole') RETURNING id")).rows[0]!.id;
    await pool.query('INSERT INTO config_access (config_id, external_user_id, external_role_id) VALUES ($1, $2, $3), ($4, $5, NULL)', [ids.sso, ids.alice, ids.role, ids.admins, ids.bob]);
    await pool.query(
      `INSERT INTO config_access_logs (config_id, external_user_id, mfa, client_ip, created_at) VALUES
        ($1, $2, true, '10.0.0.1', now() - interval '1 day'), ($1, $3, false, '10.0.0.2', now() - interval '60 days')`,
      [ids.sso, ids.alice, ids.bob],
    );
    await pool.query("INSERT INTO access_reviews (config_id, external_user_id, status, source) VALUES ($1, $2, 'approved', 'quarterly review')", [ids.sso, ids.alice]);
    await pool.query("INSERT INTO incidents (title, severity, source_kind, source_id) VALUES ('payments-worker down', 'high', 'config', $1), ('search slow', 'low', 'config', $2)", [ids.worker, ids.other]);

    const res = await post({
      name: 'payments',
      namespace: 'audit',
      spec: {
        type: 'Service',
        description: 'Takes the money',
        properties: [{ label: 'Tier', text: '1', order: 2 }, { label: 'Owner', text: 'Team Pay', order: 1 }],
        mapping: {
          environments: {
            Production: [{ types: ['Kubernetes::Deployment'], labelSelector: 'app=payments', tagSelector: 'cluster=prod', purpose: 'primary' }],
            Staging: [{ search: 'type=Kubernetes::* cluster=staging app=payments' }],
          },
          datasources: [{ search: 'type=AWS::RDS* account=12345' }],
          logins: [{ search: 'type=Azure::EnterpriseApplication name=Payments' }],
          roles: [{ name: 'payments-admins', types: ['Azure::Group'], role: 'Admin' }],
          accessReviews: [{ types: ['Azure::EnterpriseApplication'], name: 'Payments' }],
        },
        sections: [{ title: 'Backups', viewRef: { name: 'backups' } }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('reads environments, access, logins, reviews, changes and incidents in the range', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/applications/audit/payments?from=now-7d', headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ name: 'payments', namespace: 'audit', type: 'Service', description: 'Takes the money' });
    expect(report.properties.map((property: { label: string }) => property.label)).toEqual(['Owner', 'Tier']);
    const env = Object.fromEntries(report.environments.map((item: { name: string; configs: Array<{ id: string }> }) => [item.name, item.configs.map((config) => config.id).sort()]));
    expect(env).toEqual({ Production: [ids.api, ids.worker].sort(), Staging: [ids.staging] });
    expect(report.environments[0]).toMatchObject({ purpose: 'primary', health: { healthy: 1, unhealthy: 1, total: 2 } });
    expect(report.datasources.map((config: { id: string }) => config.id)).toEqual([ids.db]);
    expect(report.health).toMatchObject({ healthy: 2, unhealthy: 1, warning: 1, total: 4 });

    expect(report.logins).toHaveLength(1);
    expect(report.logins[0]).toMatchObject({ user: { name: 'Alice Adams' }, config: { id: ids.sso }, mfa: true, client_ip: '10.0.0.1' });
    const access = report.access.map((row: { user: { name: string }; role: string | null; mapped_role: string | null }) => [row.user.name, row.role, row.mapped_role]);
    expect(access).toEqual([['Alice Adams', 'Owner', null], ['Bob Brown', null, 'Admin']]);
    expect(report.access[0].last_login).not.toBeNull();
    expect(report.accessReviews).toEqual([expect.objectContaining({ status: 'approved', source: 'quarterly review', user: expect.objectContaining({ email: 'alice@example.com' }) })]);

    expect(report.changes.map((change: { summary: string }) => change.summary)).toEqual(['image bumped']);
    expect(report.incidents.map((incident: { title: string }) => incident.title)).toEqual(['payments-worker down']);
    expect(report.sections).toEqual([expect.objectContaining({ title: 'Backups', namespace: 'audit', name: 'backups', id: null, error: expect.stringContaining('does not exist') })]);
  });

  it('widens with the range, and names bad ranges by path', async () => {
    const wide = (await t.app.inject({ method: 'GET', url: '/api/applications/audit/payments?from=now-90d', headers: t.adminHeaders })).json();
    expect(wide.logins).toHaveLength(2);
    expect(wide.changes).toHaveLength(2);
    const bad = await t.app.inject({ method: 'GET', url: '/api/applications/audit/payments?from=yesterday&to=2020-01-01T00:00:00Z', headers: t.adminHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'query.from' })]);
    const missing = await t.app.inject({ method: 'GET', url: '/api/applications/finance/nope', headers: t.adminHeaders });
    expect(missing.statusCode).toBe(404);
  });

  it('lists cards with health, environments, counts and open incidents', async () => {
    const cards = (await t.app.inject({ method: 'GET', url: '/api/applications', headers: t.adminHeaders })).json();
    expect(cards.find((card: { name: string; namespace: string }) => card.name === 'payments' && card.namespace === 'audit')).toMatchObject({
      namespace: 'audit', type: 'Service', environments: ['Production', 'Staging'], configs: 4, open_incidents: 1, health: { unhealthy: 1, total: 4 },
    });
  });

  it('serves the applications and access tables through /api/db', async () => {
    const apps = await t.app.inject({ method: 'GET', url: '/api/db/applications?select=name,type&name=eq.payments&namespace=eq.audit', headers: t.adminHeaders });
    expect(apps.json()).toEqual([{ name: 'payments', type: 'Service' }]);
    const access = await t.app.inject({ method: 'GET', url: `/api/db/config_access?select=external_users(name),external_roles(name)&config_id=eq.${ids.sso}`, headers: t.adminHeaders });
    expect(access.statusCode, access.body).toBe(200);
    expect(access.json()).toEqual([{ external_users: { name: 'Alice Adams' }, external_roles: { name: 'Owner' } }]);
    const written = await t.app.inject({ method: 'POST', url: '/api/db/external_users', payload: { name: 'Carol', email: 'carol@example.com' }, headers: { ...t.adminHeaders, prefer: 'return=representation' } });
    expect(written.statusCode, written.body).toBe(201);
  });
});

describe('the PDF export', () => {
  const chromium = chromiumPath();
  it.skipIf(!existsSync(chromium))(`renders the report page as the caller into a PDF (needs Chromium at ${chromium})`, async () => {
    const base = await t.listen();
    // The person's date preferences travel with the request (the server's browser has none of its own).
    const res = await fetch(`${base}/api/applications/audit/payments/pdf?from=now-7d&dateTimeFormat=full&timezone=Asia%2FKolkata`, { headers: t.adminHeaders });
    expect(res.status, await res.clone().text().then((text) => text.slice(0, 300))).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 4).toString()).toBe('%PDF');
  }, 90_000);

  it('names a date format or time zone it cannot print in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/applications/audit/payments/pdf?dateTimeFormat=weekly&timezone=Mars%2FOlympus', headers: t.adminHeaders });
    expect(res.statusCode).toBe(400);
    const details = res.json().details as Array<{ path: string; message: string }>;
    expect(details.map((issue) => issue.path).sort()).toEqual(['query.dateTimeFormat', 'query.timezone']);
    expect(details.find((issue) => issue.path === 'query.timezone')?.message).toMatch(/IANA time zone/);
  });

  it('answers 503 naming WATCHKEEPER_CHROMIUM when Chromium is missing', async () => {
    const before = process.env.WATCHKEEPER_CHROMIUM;
    process.env.WATCHKEEPER_CHROMIUM = '/nonexistent/chromium';
    try {
      const base = await t.listen();
      const res = await fetch(`${base}/api/applications/audit/payments/pdf`, { headers: t.adminHeaders });
      expect(res.status).toBe(503);
      expect((await res.json()).message).toContain('WATCHKEEPER_CHROMIUM');
    } finally {
      if (before === undefined) delete process.env.WATCHKEEPER_CHROMIUM;
      else process.env.WATCHKEEPER_CHROMIUM = before;
    }
  });
});
