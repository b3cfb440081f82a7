import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, outcome, runByName, uniqueName, validate, closedPort as freeClosedPort } from '../testing/check-harness';

/**
 * postgres and mysql checks against the machine's real servers (PostgreSQL 127.0.0.1:5432 user postgres,
 * MariaDB 127.0.0.1:3306 user root): each run creates its own database with a table, and drops it.
 */
let t: TestApp;
const pgDatabase = uniqueName('wk_check_pg');
const pgRole = uniqueName('wk_check_role');
const myDatabase = uniqueName('wk_check_my');
let closedPort = 0;

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

beforeAll(async () => {
  t = await createTestApp();
  await pgAdmin('postgres', async (client) => {
    await client.query(`CREATE DATABASE ${pgDatabase}`);
    await client.query(`CREATE ROLE ${pgRole} LOGIN`);
  });
  await pgAdmin(pgDatabase, async (client) => {
    await client.query('CREATE TABLE services (name text PRIMARY KEY, replicas int, up boolean, started timestamptz, meta jsonb, weight numeric)');
    await client.query(`INSERT INTO services VALUES
      ('api', 2, true, '2024-05-01T10:00:00Z', '{"tier": "web"}', 1.5),
      ('queue', 1, true, '2024-05-02T10:00:00Z', '{"tier": "data"}', 0.25),
      ('worker', 0, false, NULL, NULL, NULL)`);
    await client.query(`GRANT SELECT ON services TO ${pgRole}`);
  });
  await myAdmin(async (connection) => {
    await connection.query(`CREATE DATABASE ${myDatabase}`);
    await connection.query(`CREATE TABLE ${myDatabase}.services (name varchar(50) PRIMARY KEY, replicas int, weight decimal(5,2), started datetime)`);
    await connection.query(`INSERT INTO ${myDatabase}.services VALUES ('api', 2, 1.50, '2024-05-01 10:00:00'), ('worker', 0, NULL, NULL)`);
  });
  closedPort = await freeClosedPort();
});

afterAll(async () => {
  await pgAdmin('postgres', async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`);
    await client.query(`DROP ROLE IF EXISTS ${pgRole}`);
  }).catch(() => undefined);
  await myAdmin((connection) => connection.query(`DROP DATABASE IF EXISTS ${myDatabase}`)).catch(() => undefined);
  await t?.close();
});

describe('postgres', () => {
  it('runs queries, exposes results.rows and results.count, and applies the row rule', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: pg-checks}
spec:
  postgres:
    - name: services
      url: "postgres://$(username):$(password)@127.0.0.1:5432/${pgDatabase}?sslmode=disable"
      username: {value: ${pgRole}}
      password: {value: "n0t-shown-anywhere"}
      query: SELECT name, replicas, up, started, meta, weight FROM services ORDER BY name
      results: 3
      test:
        expr: >-
          results.count == 3 && results.rows[0].name == 'api' && results.rows[0].replicas == 2 &&
          results.rows[0].up == true && results.rows[0].meta.tier == 'web' && results.rows[1].weight == 0.25 &&
          results.rows[0].started == '2024-05-01T10:00:00.000Z' && results.rows[2].started == null
      display:
        expr: "results.rows.map(r, r.name).join(', ')"
    - name: default query
      url: postgres://postgres@127.0.0.1:5432/${pgDatabase}
    - name: counted
      url: postgres://postgres@127.0.0.1:5432/${pgDatabase}
      query: SELECT count(*) AS n FROM services WHERE up
      test: {expr: "results.rows[0].n == 2"}
    - name: too few rows
      url: postgres://postgres@127.0.0.1:5432/${pgDatabase}
      query: SELECT name FROM services
      results: 5
    - name: empty
      url: postgres://postgres@127.0.0.1:5432/${pgDatabase}
      query: SELECT name FROM services WHERE false
      markFailOnEmpty: true
    - name: key value
      url: "host=127.0.0.1 port=5432 dbname=${pgDatabase} user=$(username) sslmode=disable"
      username: postgres
      query: SELECT current_user AS who
      test: {expr: "results.rows[0].who == 'postgres'"}
    - name: slow
      url: postgres://postgres@127.0.0.1:5432/${pgDatabase}
      query: SELECT pg_sleep(10)
      timeout: 1
    - name: unreachable
      url: postgres://admin:s3cret-in-url@127.0.0.1:${closedPort}/nowhere
`,
    );
    expect(applied.ok).toBe(true);
    expect(applied.warnings).toEqual([]);

    const results = await runByName(t, 'pg-checks');
    expect(results.services).toMatchObject({ pass: true, message: 'api, queue, worker' });
    expect(results.services?.details).toMatchObject({ count: 3 });
    expect(results['default query']).toMatchObject({ pass: true, message: 'the query returned 1 row' });
    expect(results.counted).toMatchObject({ pass: true });
    expect(results['too few rows']).toMatchObject({ pass: false, message: 'the query returned 3 rows, expected at least 5' });
    expect(results.empty).toMatchObject({ pass: false, message: 'the query returned no rows' });
    expect(results['key value']).toMatchObject({ pass: true });
    expect(results.slow?.pass).toBe(false);
    expect(results.slow?.message).toMatch(/statement timeout|timed out/);
    expect(results.slow?.duration).toBeLessThan(5000);
    expect(results.unreachable?.pass).toBe(false);
    expect(results.unreachable?.message).toContain('the query failed');

    const stored = await t.db.pool.query<{ name: string; endpoint: string }>("SELECT name, endpoint FROM checks WHERE type = 'postgres' ORDER BY name");
    const endpoints = Object.fromEntries(stored.rows.map((row) => [row.name, row.endpoint]));
    expect(endpoints.unreachable).toBe(`postgres://admin:***@127.0.0.1:${closedPort}/nowhere`);
    expect(endpoints.services).toBe(`postgres://$(username):***@127.0.0.1:5432/${pgDatabase}?sslmode=disable`);
    const everything = JSON.stringify(await t.db.pool.query("SELECT message, error, details FROM check_statuses"));
    expect(everything).not.toContain('s3cret-in-url');
    expect(everything).not.toContain('n0t-shown-anywhere');
  });

  it('accepts credentials from secrets and stored connections (read at run), refuses a check without a url', () => {
    expect(validate('postgres', { name: 'from a secret', url: 'postgres://db/x', password: { valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } } })).toMatchObject({ errors: [], warnings: [] });
    expect(validate('postgres', { name: 'bad ref', url: 'postgres://db/x', password: { valueFrom: { secretKeyRef: { name: 'db' } } } }).errors).toEqual(['spec.postgres[0].password.valueFrom: secretKeyRef.key is required']);
    expect(validate('postgres', { name: 'no url', query: 'SELECT 1' }).errors).toEqual(['spec.postgres[0].url: is required (or connection, a connection string)']);
    expect(validate('postgres', { name: 'stored', connection: 'connection://postgres/main' })).toMatchObject({ errors: [], warnings: [] });
  });

  it('reads connection as the connection string, as canary-checker does', async () => {
    const ran = await outcome('postgres', { name: 'by connection', connection: `postgres://postgres@127.0.0.1:5432/${pgDatabase}?sslmode=disable` });
    expect(ran).toMatchObject({ pass: true, message: 'the query returned 1 row' });
  });
});

describe('mysql', () => {
  it('runs queries against MariaDB in the Go DSN and URL forms', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: mysql-checks}
spec:
  mysql:
    - name: dsn
      url: "$(username):$(password)@tcp(127.0.0.1:3306)/${myDatabase}"
      username: {value: root}
      password: {value: ""}
      query: SELECT name, replicas, weight, started FROM services ORDER BY name
      results: 2
      test:
        expr: >-
          results.count == 2 && results.rows[0].name == 'api' && results.rows[0].replicas == 2 &&
          results.rows[0].weight == 1.5 && results.rows[0].started.startsWith('2024-05-01') && results.rows[1].weight == null
    - name: url
      url: mysql://root@127.0.0.1:3306/${myDatabase}
      query: SELECT count(*) AS n FROM services
      test: {expr: "results.rows[0].n == 2"}
    - name: default query
      url: mysql://root@127.0.0.1:3306/
    - name: unknown database
      url: "root:s3cret-dsn@tcp(127.0.0.1:3306)/no_such_db_here"
    - name: slow
      url: mysql://root@127.0.0.1:3306/
      query: SELECT SLEEP(10) AS s
      test: {expr: "results.rows[0].s == 0"}
      timeout: 1
    - name: not a dsn
      url: "just some words"
`,
    );
    expect(applied.ok).toBe(true);
    const results = await runByName(t, 'mysql-checks');
    expect(results.dsn).toMatchObject({ pass: true, message: 'the query returned 2 rows' });
    expect(results.url).toMatchObject({ pass: true });
    expect(results['default query']).toMatchObject({ pass: true, message: 'the query returned 1 row' });
    expect(results['unknown database']?.pass).toBe(false);
    expect(results['unknown database']?.message).toContain('the query failed');
    expect(results.slow?.pass).toBe(false);
    expect(results.slow?.duration).toBeLessThan(5000);
    expect(results['not a dsn']).toMatchObject({ pass: false, invalid: true });
    const stored = await t.db.pool.query<{ endpoint: string }>("SELECT endpoint FROM checks WHERE type = 'mysql' AND name = 'unknown database'");
    expect(stored.rows[0]?.endpoint).toBe('root:***@tcp(127.0.0.1:3306)/no_such_db_here');
    expect(JSON.stringify(await t.db.pool.query('SELECT message, error, details FROM check_statuses'))).not.toContain('s3cret-dsn');
  });
});
