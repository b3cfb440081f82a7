import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { connectionKind } from '../../connections';
import { applyCanary, canaryIdOf, runByName, uniqueName } from '../testing/check-harness';

/**
 * Issue 36 §3: a check that uses a stored connection sees the connection's values as they are — its test,
 * display and transform read the query's rows unredacted, the user name included — while what is stored
 * still hides the connection's password. Against the machine's PostgreSQL (127.0.0.1:5432, user postgres).
 */
let t: TestApp;
const database = uniqueName('wk_conn_values');
const connection = uniqueName('conn').replaceAll('_', '-');
const canary = uniqueName('conn-values').replaceAll('_', '-');
const PASSWORD = 'c0nn-passw0rd-shown-nowhere';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  await admin((client) => client.query(`CREATE DATABASE ${database}`));
  const [applied] = await applyDocuments(t.db.pool, [connectionKind], [{
    file: 'connection.yaml',
    text: `
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: ${connection}, namespace: default}
spec:
  type: postgres
  url: postgres://127.0.0.1:5432/${database}?sslmode=disable
  username: postgres
  password: ${PASSWORD}
`,
  }], 'ConfigFile', createLogger('silent'));
  expect(applied?.errors).toEqual([]);
});

afterAll(async () => {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(() => undefined);
  await t?.close();
});

describe('a check through a stored connection', () => {
  it('tests and displays the rows as they are, the user name included; the stored result hides the password', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ${canary}, namespace: default}
spec:
  schedule: "@every 1h"
  postgres:
    - name: who
      connection: connection://default/${connection}
      query: "SELECT current_user AS u, '${PASSWORD}' AS p"
      test:
        expr: "results.rows[0].u == 'postgres' && results.rows[0].p == '${PASSWORD}'"
      display:
        template: "user {{ (index .results.rows 0).u }}, password {{ (index .results.rows 0).p }}"
    - name: after
      dependsOn: [who]
      url: postgres://postgres@127.0.0.1:5432/${database}?sslmode=disable
      query: SELECT 1
      test:
        expr: "outputs.who.results.rows[0].p == '${PASSWORD}'"
      display:
        template: "after {{ (index .outputs.who.results.rows 0).u }}/{{ (index .outputs.who.results.rows 0).p }}"
`,
    );
    expect(applied.errors).toEqual([]);
    const results = await runByName(t, canary);
    expect(results.who).toMatchObject({ pass: true, error: null, message: 'user postgres, password ***' });
    expect(results.who?.details).toEqual({ count: 1, rows: [{ u: 'postgres', p: '***' }] });
    // A check that depends on it reads its variables as they are, and stores no secret of it either.
    expect(results.after).toMatchObject({ pass: true, error: null, message: 'after postgres/***' });

    const stored = await t.db.pool.query(
      'SELECT s.status, s.message, s.error, s.details FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1',
      [await canaryIdOf(t, canary)],
    );
    expect(stored.rows.map((row) => row.message).sort()).toEqual(['after postgres/***', 'user postgres, password ***']);
    expect(stored.rows.every((row) => row.status === true)).toBe(true);
    expect(JSON.stringify(stored.rows)).not.toContain(PASSWORD);
    expect(JSON.stringify(stored.rows)).toContain('postgres');
  });
});
