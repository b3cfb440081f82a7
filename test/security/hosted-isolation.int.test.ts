import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWorkDir } from '../../server/platform/peers/work-dir';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, hosted mode: "in a shared database no tenant's code, SQL or file access reaches another
 * tenant's rows". Two organizations (Acme, Globex) share one console and its database (row-level
 * security, docs/HOSTED.md). Each organization's admin (its member role; the console's viewer) holds the
 * capabilities exec and server_files by that role, and each tries to read the other's rows:
 * (a) with an exec check (environment, the database without credentials, the data directory, the server's
 *     /proc environment), (b) with view panel SQL (the other's tables, and the console's own tables),
 * (c) with a log backend (the data directory, where the database's files are; outside the roots; the
 *     other's backend by name). None of the other's data comes back; the same probes find their own.
 */

let t: TestApp;
let base = '';
let dataDir = '';
let logRoot = '';
const org = { acme: '', globex: '' };
type Tenant = { name: 'acme' | 'globex'; headers: Record<string, string>; marker: string; password: string };
const tenants: Record<'acme' | 'globex', Tenant> = {
  acme: { name: 'acme', headers: {}, marker: 'acme-marker-5c1e', password: 'acme-conn-password-0a9f' },
  globex: { name: 'globex', headers: {}, marker: 'globex-marker-77d2', password: 'globex-conn-password-3b4c' },
};
const other = (tenant: Tenant) => (tenant.name === 'acme' ? tenants.globex : tenants.acme);

async function call(tenant: Tenant, method: 'GET' | 'POST', url: string, body?: unknown) {
  const response = await t.app.inject({ method, url, headers: tenant.headers, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) });
  const text = response.body;
  let json: unknown = null;
  try {
    json = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    json = null;
  }
  return { status: response.statusCode, text, json };
}

/** Every value of the tenant's that must never reach the other: row names, a connection's password. */
function secretsOf(tenant: Tenant): string[] {
  return [tenant.marker, tenant.password];
}

function expectNothingOf(text: string, victim: Tenant): void {
  for (const value of secretsOf(victim)) expect(text, `found ${value}`).not.toContain(value);
}

/** The database password of this console (in the test database URL): never in any answer. */
function databasePassword(): string {
  // A server reached without a password (the machine's, trust auth) has none to leak: nothing can match this.
  return decodeURIComponent(new URL(t.db.url).password) || '\u0000no database password';
}

/**
 * Whether the database server lets anyone on this machine in without a password (trust auth, as the CI
 * machine's PostgreSQL does). Then a local script can connect as the superuser and no console can stop it:
 * the exec probe leaves the database out and says so (docs/SECURITY.md: give the database a password).
 */
async function trustsLocalConnections(url: string): Promise<boolean> {
  const target = new URL(url);
  target.username = 'postgres';
  target.password = '';
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wk-hosted-isolation-')));
  dataDir = path.join(base, 'data');
  logRoot = path.join(base, 'logs');
  await fs.mkdir(dataDir, { recursive: true });
  await fs.mkdir(logRoot, { recursive: true });
  // The console's own log, beside the organizations' folders under the root: no organization's to read.
  await fs.writeFile(path.join(logRoot, 'app.log'), `${new Date(Date.now() - 60_000).toISOString()} INFO console started\n`);
  t = await createTestApp({
    env: {
      WATCHKEEPER_AUTH: 'oidc',
      WATCHKEEPER_OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
      WATCHKEEPER_OIDC_CLIENT_ID: 'watchkeeper',
      WATCHKEEPER_OIDC_CLIENT_SECRET: 'secret',
      WATCHKEEPER_DATA: dataDir,
      WATCHKEEPER_LOG_ROOTS: logRoot,
    },
  });
  const { rows } = await t.db.pool.query<{ id: string; name: string }>("INSERT INTO organizations (name, external_id) VALUES ('Acme', 'org_acme'), ('Globex', 'org_globex') RETURNING id, name");
  org.acme = rows.find((row) => row.name === 'Acme')?.id ?? '';
  org.globex = rows.find((row) => row.name === 'Globex')?.id ?? '';
  // Both organizations' work folders exist (each made at its first script): the probes look into the other's.
  for (const id of Object.values(org)) await organizationWorkDir(id);
  for (const tenant of Object.values(tenants)) {
    // The organization's admin by membership only (the console's viewer): its only organization is chosen for it.
    const person = await t.userWith(['viewer'], `${tenant.name}-admin@example.com`);
    await t.db.pool.query("INSERT INTO organization_members (organization_id, person_id, role, source) VALUES ($1, $2, 'admin', 'console')", [org[tenant.name], person.id]);
    tenant.headers = person.headers;
    // Rows of the tenant's own, made through the product: a connection with a password, a team, a canary.
    const connection = await call(tenant, 'POST', '/api/connections', { name: `${tenant.marker}-db`, type: 'postgres', url: `postgres://db.${tenant.name}.internal:5432/app`, username: tenant.name, password: tenant.password });
    expect(connection.status, connection.text).toBe(201);
    expect((await call(tenant, 'POST', '/api/db/teams', { name: `${tenant.marker}-team` })).status).toBe(201);
    // A pod in its catalog, as a scraper leaves it (in its organization).
    await t.db.pool.query("INSERT INTO config_items (type, name, namespace, health, tags, config, organization_id) VALUES ('Kubernetes::Pod', $1, 'prod', 'healthy', '{}', '{}', $2)", [`${tenant.marker}-pod`, org[tenant.name]]);
    const canary = await call(tenant, 'POST', '/api/canary/canaries', { name: `${tenant.marker}-ports`, spec: { schedule: '@every 1h', tcp: [{ name: `${tenant.marker}-tcp`, endpoint: '127.0.0.1:9' }] } });
    expect(canary.status, canary.text).toBe(201);
    // Its log folder under the root (<root>/<organization id>/, docs/HOSTED.md), and a log backend of its own there.
    const folder = path.join(logRoot, org[tenant.name]);
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'app.log'), `${new Date(Date.now() - 60_000).toISOString()} INFO ${tenant.marker} served ${tenant.password}\n`);
    const logs = await call(tenant, 'POST', '/api/logs/backends', { name: `${tenant.marker}-logs`, spec: { files: [{ paths: [path.join(folder, '*.log')] }] } });
    expect(logs.status, logs.text).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (base) await fs.rm(base, { recursive: true, force: true });
});

describe.each(['acme', 'globex'] as const)('%s tries to read the other organization', (name) => {
  it('with an exec check: no credentials, no data directory, none of the other’s rows', async () => {
    const tenant = tenants[name];
    const victim = other(tenant);
    const db = new URL(t.db.url);
    const database = db.pathname.slice(1);
    const trusted = await trustsLocalConnections(t.db.url);
    if (trusted) console.log(`hosted isolation: ${db.hostname}:${db.port} lets local connections in without a password (trust auth); the exec probe leaves the database out: no console can contain a superuser login its server hands to anyone`);
    const workBase = path.join(os.tmpdir(), `watchkeeper-organizations-${process.getuid?.() ?? 'user'}`);
    const script = [
      'echo "uid=$(id -u)"',
      'echo "cwd=$(pwd)"',
      // The organizations' work folders: neither the list of them nor the other's runs (0711, the console's).
      `ls ${workBase} 2>&1 | sed 's/^/base: /'`,
      `ls ${path.join(workBase, org[victim.name])} 2>&1 | sed 's/^/other: /'`,
      'env',
      // The database without a password (the script has none), as the console's user and as postgres.
      ...(trusted
        ? []
        : [
            `psql "postgresql://${db.username}@${db.hostname}:${db.port}/${database}" -w -Atc "SELECT name FROM connections; SELECT name FROM teams; SELECT name FROM canaries" 2>&1`,
            `psql "postgresql://postgres@${db.hostname}:${db.port}/${database}" -w -Atc "SELECT name FROM connections" 2>&1`,
          ]),
      // The data directory (secret.key, postgres.json, the embedded cluster's files) and the server's environment.
      `cat ${path.join(dataDir, 'secret.key')} ${path.join(dataDir, 'postgres.json')} 2>&1`,
      `ls -la ${dataDir} 2>&1`,
      `cat /proc/${process.pid}/environ 2>/dev/null | tr "\\0" "\\n"`,
      'true',
    ].join('\n');
    const canary = await call(tenant, 'POST', '/api/canary/canaries', { name: `${tenant.name}-probe`, spec: { schedule: '@every 1h', exec: [{ name: `${tenant.name}-probe`, script }] } });
    expect(canary.status, canary.text).toBe(201);
    const checks = await call(tenant, 'GET', `/api/db/checks?canary_id=eq.${(canary.json as { id: string }).id}&select=id`);
    const checkId = (checks.json as Array<{ id: string }>)[0]?.id;
    expect(checkId).toBeDefined();
    const ran = await call(tenant, 'POST', `/api/canary/run/check/${checkId}`);
    expect(ran.status, ran.text).toBe(200);
    const output = JSON.stringify(ran.json);
    // The script ran (its output is there), in a fresh folder inside its organization's own work folder …
    expect(output).toContain('uid=');
    expect(output).toMatch(new RegExp(`cwd=${workBase}/${org[tenant.name]}/wk-exec-`));
    if (process.getuid?.() === 0) {
      // … where the script's user may pass, but list neither the organizations nor the other's runs.
      expect(output).toMatch(/base: ls: cannot open directory[^\n]*Permission denied/);
      expect(output).toMatch(/other: ls: cannot open directory[^\n]*Permission denied/);
    }
    // … and read none of the other's rows, no database credentials, nothing of the data directory.
    expectNothingOf(output, victim);
    expectNothingOf(output, tenant);
    expect(output).not.toContain(databasePassword());
    expect(output).not.toMatch(/DATABASE_URL|PGPASSWORD/);
    // What stopped it: no password for the database, no entry to the data directory.
    if (!trusted) expect(output).toContain('no password supplied');
    expect(output).toMatch(/secret\.key: Permission denied|secret\.key: No such file/);
    const key = (await fs.readFile(path.join(dataDir, 'secret.key'), 'utf8')).trim();
    for (const line of key.split('\n').filter((part) => part.length > 8)) expect(output).not.toContain(line);
    if (process.getuid?.() === 0) expect(output).not.toContain('uid=0\\n');
  });

  it('with view panel SQL: the other’s rows are not there (row-level security), nor the console’s own tables', async () => {
    const tenant = tenants[name];
    const victim = other(tenant);
    const panels = [
      // The view's own query results: its query ran in its organization's scope.
      { name: 'Pods', query: 'SELECT name FROM pods' },
      // The tables themselves, the other's and the console's own.
      { name: 'Connections', query: 'SELECT name, url, username, password FROM connections' },
      { name: 'Teams', query: 'SELECT name FROM teams' },
      { name: 'Canaries', query: 'SELECT name, spec::text AS spec FROM canaries' },
      { name: 'Configs', query: 'SELECT name FROM config_items' },
      { name: 'People', query: 'SELECT name, email FROM people' },
      { name: 'Members', query: 'SELECT organization_id::text AS name, person_id::text AS person FROM organization_members' },
      { name: 'Organizations', query: 'SELECT name FROM organizations' },
      { name: 'Sessions', query: 'SELECT token_hash AS name FROM sessions' },
      { name: 'Platform', query: 'SELECT person_id::text AS name FROM platform_admins' },
      { name: 'Other view', query: `SELECT name FROM view_default_${victim.name}_probe` },
      { name: 'Scope', query: "SELECT current_setting('watchkeeper.organization', true) AS name, current_user AS who" },
    ];
    const view = await call(tenant, 'POST', '/api/views', {
      name: `${tenant.name}-probe`,
      namespace: 'default',
      spec: { columns: [{ name: 'name', type: 'string', primaryKey: true }], queries: { pods: { configs: { types: ['Kubernetes::Pod'] } } }, panels: panels.map((panel) => ({ ...panel, type: 'table' })) },
    });
    expect(view.status, view.text).toBe(201);
    const answer = await call(tenant, 'POST', `/api/view/${(view.json as { id: string }).id}`, {});
    expect(answer.status, answer.text).toBe(200);
    expectNothingOf(answer.text, victim);
    expect(answer.text).not.toContain(databasePassword());
    expect(answer.text).not.toContain(org[victim.name]);
    const byName = Object.fromEntries((answer.json as { panels: Array<{ name: string; rows: Array<Record<string, unknown>>; error?: string }> }).panels.map((panel) => [panel.name, panel]));
    // Its own pod is found by the same SQL: the organization's scope, not a broken query, keeps the other's out.
    expect(byName.Pods?.rows).toEqual([{ name: `${tenant.marker}-pod` }]);
    expect(byName.Scope?.rows).toEqual([{ name: org[tenant.name], who: 'watchkeeper_view_reader' }]);
    // Every table itself is refused, the other's as well as the console's own.
    for (const table of ['Connections', 'Teams', 'Canaries', 'Configs', 'People', 'Members', 'Organizations', 'Sessions', 'Platform', 'Other view']) {
      expect(byName[table]?.rows, table).toEqual([]);
      expect(byName[table]?.error, table).toMatch(/permission denied|does not exist/);
    }
  });

  it('with a log backend: not the data directory (where the database’s files are), not outside the roots, not the other’s backend', async () => {
    const tenant = tenants[name];
    const victim = other(tenant);
    const save = (backend: string, paths: string[]) => call(tenant, 'POST', '/api/logs/backends', { name: backend, spec: { files: [{ paths }] } });
    for (const paths of [[path.join(dataDir, 'secret.key')], [path.join(dataDir, '**')], [path.join(dataDir, 'postgres', 'base', '**')], ['/proc/self/environ'], [`${logRoot}/../data/postgres.json`], ['/var/lib/postgresql/**']]) {
      const refused = await save(`${tenant.name}-bad`, paths);
      expect(refused.status, `${paths.join(',')}: ${refused.text}`).toBe(400);
    }
    // The other's backend by its name: as if it did not exist.
    const theirs = await call(tenant, 'POST', '/api/logs', { name: `${victim.marker}-logs`, query: '', start: '30d' });
    expect(theirs.status, theirs.text).toBe(404);
    expect(theirs.text).not.toContain(victim.password);
    expect(theirs.text).not.toContain('console started');
    // Its own backend searches its own folder.
    const mine = await call(tenant, 'POST', '/api/logs', { name: `${tenant.marker}-logs`, query: '', start: '30d' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.text).toContain(`${tenant.marker} served`);
    expectNothingOf(mine.text, victim);
    const backends = await call(tenant, 'GET', '/api/db/logging_backends?select=name');
    expect(backends.text).not.toContain(victim.marker);
  });

  it('with a log backend under the roots: only its own folder <root>/<its id>/, never the other’s or the console’s files beside them', async () => {
    const tenant = tenants[name];
    const victim = other(tenant);
    const mine = path.join(logRoot, org[tenant.name]);
    const theirs = path.join(logRoot, org[victim.name]);
    const save = (backend: string, paths: string[]) => call(tenant, 'POST', '/api/logs/backends', { name: backend, spec: { files: [{ paths }] } });
    // At save: the other's folder, a glob over every organization's, the root itself (the console's own log).
    for (const paths of [[path.join(theirs, 'app.log')], [path.join(theirs, '*.log')], [path.join(logRoot, '*', '*.log')], [path.join(logRoot, '**')], [path.join(logRoot, 'app.log')], [`${mine}/../${org[victim.name]}/app.log`]]) {
      const refused = await save(`${tenant.name}-other`, paths);
      expect(refused.status, `${paths.join(',')}: ${refused.text}`).toBe(400);
      expect(refused.text).not.toContain(victim.password);
    }
    const refused = await save(`${tenant.name}-other`, [path.join(theirs, 'app.log')]);
    expect(refused.json).toMatchObject({ details: [{ path: 'body.spec.files[0].paths[0]', message: expect.stringContaining(`is outside this organization's log folders (${mine}`) }] });
    // At read: a backend row naming the other's folder (saved before this rule, or written around it), and a
    // link inside its own folder to the other's file, read nothing of the other's.
    await t.db.pool.query('INSERT INTO logging_backends (name, spec, organization_id) VALUES ($1, $2, $3)', [
      `${tenant.name}-stored`,
      JSON.stringify({ files: [{ paths: [path.join(theirs, '*.log'), path.join(logRoot, '*.log')] }] }),
      org[tenant.name],
    ]);
    const stored = await call(tenant, 'POST', '/api/logs', { name: `${tenant.name}-stored`, query: '', start: '30d' });
    expect(stored.status, stored.text).toBe(200);
    expect((stored.json as { results: unknown[] }).results).toEqual([]);
    expectNothingOf(stored.text, victim);
    expect(stored.text).not.toContain('console started');
    await fs.symlink(path.join(theirs, 'app.log'), path.join(mine, 'link.log')).catch(() => undefined);
    const linked = await call(tenant, 'POST', '/api/logs', { name: `${tenant.marker}-logs`, query: '', start: '30d' });
    expect(linked.status, linked.text).toBe(200);
    expectNothingOf(linked.text, victim);
    expect(linked.text).toContain(`${tenant.marker} served`);
  });
});
