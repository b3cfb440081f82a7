import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDemo, DEMO_NAMESPACE } from '../demo';
import { runCanary } from '../run-canary';

/** `serve --demo`: the demo canaries check the running console for real and run at once. */
let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp();
  port = Number(new URL(await t.listen()).port);
});

afterAll(async () => {
  await t?.close();
});

describe('demo data', () => {
  it('adds three canaries that run at once, once each however often the console starts', async () => {
    // As `serve` on the embedded database: the folder check of the data directory is included.
    const ctx = { ...t.context, config: { ...t.context.config, host: '127.0.0.1', port, databaseUrl: undefined, dataDir: os.tmpdir() } };
    expect(await applyDemo(ctx)).toBe(3);
    expect(await applyDemo(ctx)).toBe(3);
    const { rows } = await t.db.pool.query<{ id: string; name: string; source: string; due: boolean; checks: number }>(
      `SELECT c.id, c.name, c.source, c.next_run_at <= now() AS due, (SELECT count(*)::int FROM checks WHERE canary_id = c.id AND deleted_at IS NULL) AS checks
         FROM canaries c WHERE namespace = $1 AND deleted_at IS NULL ORDER BY name`,
      [DEMO_NAMESPACE],
    );
    expect(rows.map(({ name, source, due, checks }) => ({ name, source, due, checks }))).toEqual([
      { name: 'nightly-jobs', source: 'Demo', due: true, checks: 2 },
      { name: 'retired-services', source: 'Demo', due: true, checks: 1 },
      { name: 'watchkeeper-console', source: 'Demo', due: true, checks: 5 },
    ]);

    const results: Record<string, { pass: boolean; message: string }> = {};
    for (const row of rows) {
      for (const ran of await runCanary({ pool: t.db.pool, log: createLogger('silent') }, row.id, new AbortController().signal)) {
        results[ran.check.name] = ran.outcome.result;
      }
    }
    expect(results['console health']).toMatchObject({ pass: true, message: expect.stringMatching(/^database ok, version \d+\.\d+\.\d+/) });
    expect(results['sign-in required']).toMatchObject({ pass: true });
    expect(results['console port']).toMatchObject({ pass: true });
    expect(results['database port']).toMatchObject({ pass: true });
    expect(results['data directory']).toMatchObject({ pass: true, message: expect.stringMatching(/^\d+ MiB free$/) });
    expect(results['report build']).toMatchObject({ pass: true, message: 'report ready' });
    expect(results['import queue']?.message).toMatch(/jobs waiting/);
    expect(results['legacy cache']).toMatchObject({ pass: false, message: expect.stringContaining('127.0.0.1:9') });
  });
});
