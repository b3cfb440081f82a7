import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed, resetSession } from '../../server/features/views/engine/sandbox';
import { createPool } from '../../server/platform/db/pool';
import { inOrganization } from '../../server/platform/db/tenant';
import { createLogger } from '../../server/platform/logger';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35 finding 9: view panel SQL ran with session-level side effects. A panel's pg_advisory_lock(42)
 * stayed on the pooled connection after the rolled-back sandbox (so `watchkeeper migrate` and `apply`
 * hung), pg_notify reached the console's own channels. Three layers now: the guard refuses by name, the
 * reader role has no EXECUTE on the session advisory locks (migration 0039), and the connection is reset
 * after each use.
 */

let t: TestApp;

async function createView(name: string, panels: Array<{ name: string; query: string }>): Promise<string> {
  const spec = {
    columns: [{ name: 'name', type: 'string', primaryKey: true }],
    queries: { pods: { configs: { types: ['Kubernetes::Pod'] } } },
    panels: panels.map((panel) => ({ ...panel, type: 'table' })),
  };
  const { rows } = await t.db.pool.query<{ id: string }>('INSERT INTO views (name, namespace, spec) VALUES ($1, $2, $3) RETURNING id', [name, 'default', JSON.stringify(spec)]);
  return rows[0]!.id;
}

async function panelsOf(id: string): Promise<Record<string, { rows: Array<Record<string, unknown>>; error?: string }>> {
  const response = await t.app.inject({ method: 'POST', url: `/api/view/${id}`, headers: t.adminHeaders, payload: {} });
  expect(response.statusCode).toBe(200);
  const json = response.json() as { panels: Array<{ name: string; rows: Array<Record<string, unknown>>; error?: string }> };
  return Object.fromEntries(json.panels.map((panel) => [panel.name, panel]));
}

/** Whether a connection of its own (not the app's pool) can take the advisory lock `key` now. */
async function lockIsFree(key: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: t.db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key]);
    if (rows[0]?.ok) await client.query('SELECT pg_advisory_unlock($1)', [key]);
    return rows[0]?.ok === true;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['api', 'web', 'db']) {
    await t.db.pool.query("INSERT INTO config_items (type, name, namespace, health, tags, config) VALUES ('Kubernetes::Pod', $1, 'prod', 'healthy', '{}', '{}')", [name]);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('view SQL sandbox: session-level side effects', () => {
  it('refuses pg_advisory_lock, and no lock survives the panel', async () => {
    const id = await createView('locks', [
      { name: 'Lock', query: 'SELECT pg_advisory_lock(42) AS locked' },
      { name: 'Shared', query: 'SELECT pg_advisory_lock_shared(43) AS locked' },
      { name: 'Try', query: 'SELECT pg_try_advisory_lock(44) AS locked' },
      { name: 'Xact', query: 'SELECT pg_advisory_xact_lock(45) AS locked' },
      { name: 'Quoted', query: 'SELECT "pg_advisory_lock"(42) AS locked' },
      { name: 'Qualified', query: 'SELECT pg_catalog . pg_advisory_lock /* a comment */ (42) AS locked' },
      { name: 'Unicode', query: 'SELECT U&"pg\\005fadvisory\\005flock"(42) AS locked' },
      { name: 'In FROM', query: 'SELECT * FROM pg_advisory_lock(42)' },
      { name: 'Count', query: 'SELECT count(*) AS value FROM pods' },
    ]);
    const panels = await panelsOf(id);
    expect(panels.Lock!.error).toMatch(/pg_advisory_lock is not allowed in view SQL/);
    expect(panels.Shared!.error).toMatch(/pg_advisory_lock_shared is not allowed in view SQL/);
    expect(panels.Try!.error).toMatch(/pg_try_advisory_lock is not allowed in view SQL/);
    expect(panels.Xact!.error).toMatch(/pg_advisory_xact_lock is not allowed in view SQL/);
    for (const name of ['Quoted', 'Qualified', 'Unicode', 'In FROM']) expect(panels[name]!.error, name).toMatch(/pg_advisory_lock is not allowed in view SQL/);
    expect(Number(panels.Count!.rows[0]!.value)).toBe(3);
    for (const key of [42, 43, 44, 45]) expect(await lockIsFree(key), `lock ${key}`).toBe(true);
  });

  it('refuses pg_notify, set_config, dblink, large objects, server files and signals, naming the function', async () => {
    const id = await createView('session-functions', [
      { name: 'Notify', query: "SELECT pg_notify('watchkeeper_events', 'x')" },
      { name: 'Set config', query: "SELECT set_config('role', 'none', false)" },
      { name: 'Dblink', query: "SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS d(x int)" },
      { name: 'Dblink connect', query: "SELECT dblink_connect('c', 'dbname=postgres')" },
      { name: 'Large object', query: 'SELECT lo_create(0)' },
      { name: 'Read file', query: "SELECT pg_read_file('postgresql.conf')" },
      { name: 'Binary file', query: "SELECT pg_read_binary_file('postgresql.conf')" },
      { name: 'Ls dir', query: "SELECT * FROM pg_ls_dir('.')" },
      { name: 'Stat file', query: "SELECT pg_stat_file('postgresql.conf')" },
      { name: 'Terminate', query: 'SELECT pg_terminate_backend(pg_backend_pid())' },
      { name: 'Cancel', query: 'SELECT pg_cancel_backend(1)' },
      { name: 'Reload', query: 'SELECT pg_reload_conf()' },
      { name: 'Text as SQL', query: "SELECT query_to_xml('SELECT pg_advisory_lock(46)', true, false, '')" },
      { name: 'Sleep', query: 'SELECT pg_sleep(60)' },
    ]);
    const panels = await panelsOf(id);
    expect(panels.Notify!.error).toMatch(/pg_notify is not allowed in view SQL/);
    expect(panels['Set config']!.error).toMatch(/set_config is not allowed in view SQL/);
    expect(panels.Dblink!.error).toMatch(/dblink is not allowed in view SQL/);
    expect(panels['Dblink connect']!.error).toMatch(/dblink_connect is not allowed in view SQL/);
    expect(panels['Large object']!.error).toMatch(/lo_create is not allowed in view SQL/);
    expect(panels['Read file']!.error).toMatch(/pg_read_file is not allowed/);
    expect(panels['Binary file']!.error).toMatch(/pg_read_binary_file is not allowed/);
    expect(panels['Ls dir']!.error).toMatch(/pg_ls_dir is not allowed/);
    expect(panels['Stat file']!.error).toMatch(/pg_stat_file is not allowed/);
    expect(panels.Terminate!.error).toMatch(/pg_terminate_backend is not allowed/);
    expect(panels.Cancel!.error).toMatch(/pg_cancel_backend is not allowed/);
    expect(panels.Reload!.error).toMatch(/pg_reload_conf is not allowed/);
    expect(panels['Text as SQL']!.error).toMatch(/query_to_xml is not allowed in view SQL: it runs SQL given as text/);
    expect(panels.Sleep!.error).toMatch(/pg_sleep\(60\) is not allowed in view SQL: it is longer than the 5 s statement limit/);
    expect(await lockIsFree(46)).toBe(true);
  });

  it('refuses statements with session effects, naming the statement', async () => {
    const statements: Record<string, [string, RegExp]> = {
      Listen: ['LISTEN watchkeeper_events', /LISTEN is not allowed/],
      Unlisten: ['UNLISTEN *', /UNLISTEN is not allowed/],
      Notify: ["NOTIFY watchkeeper_events, 'x'", /NOTIFY is not allowed/],
      Set: ["SET statement_timeout = '1h'", /SET is not allowed/],
      Reset: ['RESET ALL', /RESET is not allowed/],
      Discard: ['DISCARD ALL', /DISCARD is not allowed/],
      Prepare: ['PREPARE p AS SELECT 1', /PREPARE is not allowed/],
      Execute: ['EXECUTE p', /EXECUTE is not allowed/],
      Deallocate: ['DEALLOCATE ALL', /DEALLOCATE is not allowed/],
      Copy: ["COPY (SELECT 1) TO PROGRAM 'id'", /COPY is not allowed/],
      Create: ['CREATE TABLE x (a int)', /CREATE is not allowed/],
      Alter: ['ALTER ROLE watchkeeper_view_reader SUPERUSER', /ALTER is not allowed/],
      Drop: ['DROP TABLE pods', /DROP is not allowed/],
      Commit: ['COMMIT', /COMMIT is not allowed/],
      Begin: ['BEGIN', /BEGIN is not allowed/],
      Chained: ['SELECT 1 AS a; LISTEN watchkeeper_events', /view SQL is one query: LISTEN after ';' is not allowed/],
      Smuggled: ['SELECT 1 AS a) q; SET ROLE NONE; SELECT (1', /SET after ';' is not allowed/],
      'In a string': ["SELECT 'pg_advisory_lock(42); LISTEN x' AS text", /^$/],
    };
    const id = await createView('statements', Object.entries(statements).map(([name, [query]]) => ({ name, query })));
    const panels = await panelsOf(id);
    for (const [name, [, error]] of Object.entries(statements)) {
      if (error.source === '^$') expect(panels[name]!.error, name).toBeUndefined();
      else expect(panels[name]!.error, name).toMatch(error);
    }
    expect(panels['In a string']!.rows).toEqual([{ text: 'pg_advisory_lock(42); LISTEN x' }]);
  });

  it('still runs ordinary panel SQL (functions, CTEs, windows, dollar quotes)', async () => {
    const id = await createView('ordinary', [
      { name: 'Window', query: 'WITH p AS (SELECT name FROM pods) SELECT name, row_number() OVER (ORDER BY name) AS n FROM p ORDER BY name' },
      { name: 'Functions', query: "SELECT upper(string_agg(name, ',' ORDER BY name)) AS names, $$advisory$$ AS word FROM pods" },
      { name: 'Values', query: "VALUES (1, 'a'), (2, 'b')" },
    ]);
    const panels = await panelsOf(id);
    expect(panels.Window!.error).toBeUndefined();
    expect(panels.Window!.rows.map((row) => row.name)).toEqual(['api', 'db', 'web']);
    expect(panels.Functions!.rows).toEqual([{ names: 'API,DB,WEB', word: 'advisory' }]);
    expect(panels.Values!.rows).toHaveLength(2);
  });

  it('the reader role may not take session advisory locks even when SQL gets past the guard', async () => {
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE watchkeeper_view_reader');
      for (const call of ['pg_advisory_lock(42)', 'pg_try_advisory_lock(42)', 'pg_advisory_lock_shared(42)', 'pg_advisory_lock(1, 2)', 'set_config(\'role\', \'none\', false)']) {
        await client.query('SAVEPOINT s');
        await expect(client.query(`SELECT ${call}`), call).rejects.toThrow(/permission denied for function/);
        await client.query('ROLLBACK TO SAVEPOINT s');
      }
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await lockIsFree(42)).toBe(true);
  });

  it('resets the pooled connection after each use: session locks and LISTENs do not survive', async () => {
    const pool = createPool(t.db.url, createLogger('silent'), { max: 1 });
    try {
      const client = await pool.connect();
      await client.query('SELECT pg_advisory_lock(47)');
      await client.query('LISTEN watchkeeper_sandbox_test');
      expect(await resetSession(client)).toBe(true);
      client.release();
      expect(await lockIsFree(47)).toBe(true);
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_listening_channels()');
      expect(rows[0]!.n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it("keeps running in the organization's scope (hosted mode) and leaves the connection in it", async () => {
    const pool = createPool(t.db.url, createLogger('silent'), { max: 1 });
    const organization = randomUUID();
    try {
      await inOrganization(organization, async () => {
        const out = await runSandboxed(pool, new Map([['things', { rows: [{ a: 1 }, { a: 2 }] }]]), ['SELECT sum(a) AS total FROM things', 'SELECT pg_advisory_lock(48)']);
        expect(out[0]!.error).toBeUndefined();
        expect(Number(out[0]!.rows[0]!.total)).toBe(3);
        expect(out[1]!.error).toMatch(/pg_advisory_lock is not allowed/);
        // The one connection of the pool: still the tenant role for this organization after the reset.
        const { rows } = await pool.query<{ role: string; org: string }>("SELECT current_user AS role, current_setting('watchkeeper.organization') AS org");
        expect(rows[0]).toEqual({ role: 'watchkeeper_tenant', org: organization });
      });
      expect(await lockIsFree(48)).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
