import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/**
 * The sql, http, exec and git scrapers against real local peers: the machine's PostgreSQL and MariaDB (a
 * database of their own, dropped after), an HTTP server on loopback, a bash script and a git repository
 * made for the test.
 */
let t: TestApp;
let root = '';
let server: http.Server;
let baseUrl = '';
let apiAnswer: unknown;
let apiStatus = 200;
const suffix = randomBytes(4).toString('hex');
const pgDatabase = `wk_scrape_pg_${suffix}`;
const myDatabase = `wk_scrape_my_${suffix}`;

async function pgAdmin<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function myAdmin<T>(work: (connection: mysql.Connection) => Promise<T>): Promise<T> {
  const connection = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com' } });
}

beforeAll(async () => {
  t = await createTestApp();
  root = await mkdtemp(path.join(os.tmpdir(), 'wk-sources-'));
  await pgAdmin('postgres', (client) => client.query(`CREATE DATABASE ${pgDatabase}`));
  await pgAdmin(pgDatabase, async (client) => {
    await client.query('CREATE TABLE services (id int PRIMARY KEY, name text, tier text, replicas bigint, meta jsonb, started timestamptz)');
    await client.query(`INSERT INTO services VALUES (1, 'api', 'web', 2, '{"port": 8080}', '2024-05-01T10:00:00Z'), (2, 'queue', 'data', 1, NULL, NULL)`);
  });
  await myAdmin(async (connection) => {
    await connection.query(`CREATE DATABASE ${myDatabase}`);
    await connection.query(`CREATE TABLE ${myDatabase}.hosts (hostname varchar(64) PRIMARY KEY, os varchar(32), cpus int)`);
    await connection.query(`INSERT INTO ${myDatabase}.hosts VALUES ('db-1', 'debian', 8), ('db-2', 'debian', 16)`);
  });
  server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Basic ${Buffer.from('api:hunter22').toString('base64')}`) {
      res.writeHead(401).end();
      return;
    }
    res.writeHead(apiStatus, { 'content-type': 'application/json' }).end(JSON.stringify(apiAnswer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await pgAdmin('postgres', (client) => client.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`)).catch(() => undefined);
  await myAdmin((connection) => connection.query(`DROP DATABASE IF EXISTS ${myDatabase}`)).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
  await t?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> & { errors?: unknown } };
}

interface Summary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  errors: string[];
}

async function createAndRun(name: string, spec: Record<string, unknown>): Promise<{ id: string; summary: Summary }> {
  const created = await call('POST', '/api/catalog/scrapers', { name, spec: { schedule: '@never', ...spec } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = String(created.body.id);
  return { id, summary: await run(id) };
}

async function run(id: string): Promise<Summary> {
  const ran = await call('POST', `/api/config/run/${id}`);
  expect(ran.status, JSON.stringify(ran.body)).toBe(200);
  return ran.body as unknown as Summary;
}

async function items(scraperId: string) {
  const { rows } = await t.db.pool.query<{ name: string; type: string; config: Record<string, unknown>; tags: Record<string, string>; external_id: string[]; source: string; deleted_at: Date | null }>(
    'SELECT name, type, config, tags, external_id, source, deleted_at FROM config_items WHERE scraper_id = $1 ORDER BY name',
    [scraperId],
  );
  return rows;
}

describe('sql scraper', () => {
  it('turns each PostgreSQL row into an item, with JSONPath mapping and numbers as numbers', async () => {
    const { id, summary } = await createAndRun('pg-services', {
      sql: [
        {
          connection: `postgres://postgres@127.0.0.1:5432/${pgDatabase}`,
          query: 'SELECT id, name, tier, replicas, meta, started FROM services ORDER BY id',
          type: 'Database::Service',
          id: '$.id',
          name: '$.name',
          tags: { tier: '$.tier' },
        },
      ],
    });
    expect(summary).toMatchObject({ created: 2, errors: [] });
    const rows = await items(id);
    expect(rows.map((row) => [row.name, row.type, row.tags.tier])).toEqual([
      ['api', 'Database::Service', 'web'],
      ['queue', 'Database::Service', 'data'],
    ]);
    expect(rows[0]?.config).toMatchObject({ id: 1, replicas: 2, meta: { port: 8080 }, started: '2024-05-01T10:00:00.000Z' });
    expect(rows[0]?.source).toBe(`sql:postgres://postgres@127.0.0.1:5432/${pgDatabase}`);

    await pgAdmin(pgDatabase, (client) => client.query("UPDATE services SET replicas = 3 WHERE name = 'api'"));
    expect(await run(id)).toMatchObject({ updated: 1, unchanged: 1, changes: 1 });
    const change = await t.db.pool.query<{ summary: string; diff: string }>(
      "SELECT c.summary, c.diff FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1 AND c.change_type = 'diff'",
      [id],
    );
    expect(change.rows).toHaveLength(1);
    expect(change.rows[0]?.diff).toContain('-replicas: 2');
    expect(change.rows[0]?.diff).toContain('+replicas: 3');
  });

  it('reads MariaDB with a Go DSN and auth', async () => {
    const { id, summary } = await createAndRun('my-hosts', {
      sql: [{ connection: `$(username):$(password)@tcp(127.0.0.1:3306)/${myDatabase}`, auth: { username: 'root', password: '' }, query: 'SELECT * FROM hosts', type: 'Host', id: '$.hostname', name: '$.hostname' }],
    });
    expect(summary).toMatchObject({ created: 2, errors: [] });
    expect((await items(id)).map((row) => [row.name, row.config.cpus])).toEqual([
      ['db-1', 8],
      ['db-2', 16],
    ]);
  });

  it('reports a failing query without the password, and keeps the items it had', async () => {
    const { id } = await createAndRun('pg-failing', {
      sql: [{ connection: `postgres://postgres:not-the-password@127.0.0.1:5432/${pgDatabase}`, query: 'SELECT id, name FROM services', type: 'Svc', id: '$.id', name: '$.name' }],
      retention: { staleItemAge: '1s' },
    });
    expect(await items(id)).toHaveLength(2);
    await t.db.pool.query(
      "UPDATE config_scrapers SET spec = jsonb_set(spec, '{sql,0,query}', '\"SELECT nope FROM services\"') WHERE id = $1",
      [id],
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const summary = await run(id);
    expect(summary.errors.join('\n')).toMatch(/spec\.sql\[0\]: the query failed: column "nope" does not exist/);
    expect(summary.errors.join('\n')).not.toContain('not-the-password');
    expect(summary.deleted).toBe(0);
    expect((await items(id)).every((row) => row.deleted_at === null)).toBe(true);
  });

  it('never answers a password through /api/db, and keeps it when the masked spec is saved back', async () => {
    // On the machine's server, where the scraped database is.
    await pgAdmin('postgres', (client) => client.query("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'wk_scrape_reader') THEN CREATE ROLE wk_scrape_reader LOGIN PASSWORD 'reader-pass-42'; END IF; END $$"));
    try {
      const spec = {
        schedule: '@never',
        sql: [
          { connection: `postgres://wk_scrape_reader:reader-pass-42@127.0.0.1:5432/${pgDatabase}`, query: 'SELECT 1 AS id', type: 'One', id: '$.id', name: 'one' },
          { connection: `postgres://127.0.0.1:5432/${pgDatabase}`, auth: { username: 'wk_scrape_reader', password: { value: 'reader-pass-42' } }, query: 'SELECT 2 AS id', type: 'Two', id: '$.id', name: 'two' },
        ],
      };
      const created = await call('POST', '/api/catalog/scrapers', { name: 'with-secrets', spec });
      expect(created.status).toBe(201);
      const id = String(created.body.id);
      const shown = await t.app.inject({ method: 'GET', url: `/api/db/config_scrapers?id=eq.${id}&select=spec`, headers: t.adminHeaders });
      expect(shown.body).not.toContain('reader-pass-42');
      const shownSpec = (shown.json() as Array<{ spec: { sql: Array<Record<string, unknown>> } }>)[0]?.spec;
      expect(shownSpec?.sql[0]?.connection).toBe(`postgres://wk_scrape_reader:******@127.0.0.1:5432/${pgDatabase}`);
      expect(shownSpec?.sql[1]?.auth).toEqual({ username: 'wk_scrape_reader', password: '******' });
      // The editor saves what it was shown, with a changed query: the secrets stay, the query changes.
      const edited = { ...shownSpec, sql: [{ ...shownSpec?.sql[0], query: 'SELECT 10 AS id' }, shownSpec?.sql[1]] };
      expect((await call('PUT', `/api/catalog/scrapers/${id}`, { name: 'with-secrets', spec: edited })).status).toBe(200);
      const stored = await t.db.pool.query<{ spec: typeof spec }>('SELECT spec FROM config_scrapers WHERE id = $1', [id]);
      expect(stored.rows[0]?.spec.sql[0]).toMatchObject({ connection: spec.sql[0]?.connection, query: 'SELECT 10 AS id' });
      expect(stored.rows[0]?.spec.sql[1]?.auth).toEqual(spec.sql[1]?.auth);
      expect(await run(id)).toMatchObject({ created: 2, errors: [] });
    } finally {
      await pgAdmin('postgres', (client) => client.query('DROP ROLE IF EXISTS wk_scrape_reader')).catch(() => undefined);
    }
  });

  it('refuses an entry without a connection or query, naming the field', async () => {
    const noQuery = await call('POST', '/api/catalog/scrapers', { name: 'bad-sql', spec: { sql: [{ connection: 'postgres://127.0.0.1/x', query: '' }] } });
    expect(noQuery.status).toBe(400);
    expect(noQuery.body.details).toEqual([{ path: 'spec.sql[0].query', message: 'is required' }]);
    const noConnection = await call('POST', '/api/catalog/scrapers', { name: 'bad-sql', spec: { sql: [{ query: 'SELECT 1' }] } });
    expect(noConnection.status).toBe(400);
    expect(JSON.stringify(noConnection.body.details)).toContain('spec.sql[0].connection');
    const { rows } = await t.db.pool.query("SELECT 1 FROM config_scrapers WHERE name = 'bad-sql'");
    expect(rows).toEqual([]);
  });
});

describe('http scraper', () => {
  it('splits a JSON answer with items, maps fields, and records what changed', async () => {
    apiAnswer = { data: [{ key: 'svc-a', title: 'A', state: 'ok' }, { key: 'svc-b', title: 'B', state: 'down' }] };
    const { id, summary } = await createAndRun('api-services', {
      http: [{ url: `${baseUrl}/services?token=abc`, username: 'api', password: 'hunter22', items: '$.data[*]', type: 'API::Service', id: '$.key', name: '$.title', status: '$.state' }],
    });
    expect(summary).toMatchObject({ created: 2, errors: [] });
    const rows = await items(id);
    expect(rows.map((row) => [row.name, row.config.state])).toEqual([
      ['A', 'ok'],
      ['B', 'down'],
    ]);
    expect(rows[0]?.source).toBe(`${baseUrl}/services`);
    apiAnswer = { data: [{ key: 'svc-a', title: 'A', state: 'ok' }, { key: 'svc-b', title: 'B', state: 'ok' }] };
    expect(await run(id)).toMatchObject({ updated: 1, unchanged: 1, changes: 1 });
  });

  it('reports an error status as an error of the entry', async () => {
    apiStatus = 503;
    try {
      const { summary } = await createAndRun('api-down', { http: [{ url: `${baseUrl}/x`, username: 'api', password: 'hunter22', type: 'X', id: '$.id', name: '$.id' }] });
      expect(summary.errors).toEqual([`spec.http[0]: ${baseUrl}/x answered HTTP 503`]);
      expect(summary.created).toBe(0);
    } finally {
      apiStatus = 200;
    }
  });
});

describe('exec scraper', () => {
  it('reads what a script prints, one item per array element, with env', async () => {
    const { id, summary } = await createAndRun('script', {
      exec: [
        {
          script: 'echo "[{\\"host\\": \\"$PREFIX-1\\", \\"up\\": true}, {\\"host\\": \\"$PREFIX-2\\", \\"up\\": false}]"',
          env: [{ name: 'PREFIX', value: 'edge' }],
          type: 'Edge::Host',
          id: '$.host',
          name: '$.host',
          health: { expr: "config.up ? 'healthy' : 'unhealthy'" },
        },
      ],
    });
    expect(summary).toMatchObject({ created: 2, errors: [] });
    const { rows } = await t.db.pool.query<{ name: string; health: string }>('SELECT name, health FROM config_items WHERE scraper_id = $1 ORDER BY name', [id]);
    expect(rows).toEqual([
      { name: 'edge-1', health: 'healthy' },
      { name: 'edge-2', health: 'unhealthy' },
    ]);
  });

  it('reports a failing script with its last line of stderr', async () => {
    const { summary } = await createAndRun('script-fails', { exec: [{ script: 'echo "no inventory today" >&2; exit 3', type: 'X', id: '$.id', name: '$.id' }] });
    expect(summary.errors).toEqual(['spec.exec[0]: the script exited with code 3: no inventory today']);
  });
});

describe('git scraper', () => {
  it('reads a repository at a ref without a checkout, and sees a later commit as a change', async () => {
    const repo = path.join(root, 'repo');
    await mkdir(path.join(repo, 'apps'), { recursive: true });
    gitIn(repo, 'init', '--quiet', '--initial-branch=main');
    await writeFile(path.join(repo, 'apps', 'web.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 2}\n');
    await writeFile(path.join(repo, 'apps', 'notes.txt'), 'not config');
    await writeFile(path.join(repo, 'settings.json'), JSON.stringify({ name: 'settings', level: 1 }));
    gitIn(repo, 'add', '.');
    gitIn(repo, 'commit', '--quiet', '-m', 'first');
    gitIn(repo, 'tag', 'v1');

    const { id, summary } = await createAndRun('repo', { git: [{ url: repo, ref: 'main', paths: ['apps/*.yaml'] }] });
    expect(summary).toMatchObject({ created: 1, errors: [] });
    const [web] = await items(id);
    expect(web).toMatchObject({ name: 'web', type: 'Kubernetes::Deployment', source: `${repo}@main:apps/web.yaml` });

    await writeFile(path.join(repo, 'apps', 'web.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 4}\n');
    gitIn(repo, 'commit', '--quiet', '-am', 'scale web');
    expect(await run(id)).toMatchObject({ updated: 1, changes: 1 });

    // A tag still reads the first commit; a clone over file:// reads the same files.
    const atTag = await createAndRun('repo-v1', { git: [{ url: `file://${repo}`, ref: 'v1', paths: ['**/*.yaml'] }] });
    expect(atTag.summary.errors).toEqual([]);
    const tagged = await items(atTag.id);
    expect(tagged.find((row) => row.name === 'web')?.config).toMatchObject({ spec: { replicas: 2 } });
  });

  it('names a ref that does not exist', async () => {
    const { summary } = await createAndRun('repo-bad-ref', { git: [{ url: path.join(root, 'repo'), ref: 'nope' }] });
    expect(summary.errors).toEqual([`spec.git[0]: ${path.join(root, 'repo')}: no branch, tag or commit named nope`]);
  });
});
