import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { canaryKind } from '../canary-kind';
import { runCanary } from '../run-canary';

/**
 * examples/canaries/*.yaml apply as they are, without warnings; those that point at this machine pass:
 * the http one against this console itself (on the test's port instead of 3000), ping and folders.
 */
const DIR = path.join(ROOT, 'examples', 'canaries');
let t: TestApp;
let base = '';

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
});

afterAll(async () => {
  await t?.close();
});

async function example(file: string): Promise<string> {
  return (await readFile(path.join(DIR, file), 'utf8')).replaceAll('http://localhost:3000', base);
}

async function applyAndRun(file: string) {
  const applied = await applyDocuments(t.db.pool, [canaryKind], [{ file, text: await example(file) }], 'ConfigFile', createLogger('silent'));
  expect(applied[0]).toMatchObject({ ok: true });
  expect(applied[0]?.outcome?.warnings ?? []).toEqual([]);
  const name = applied[0]?.outcome?.name ?? '';
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  const ran = await runCanary({ pool: t.db.pool, log: createLogger('silent') }, rows[0]?.id ?? '', new AbortController().signal);
  return Object.fromEntries(ran.map((item) => [item.check.name, item.outcome.result]));
}

describe('examples/canaries', () => {
  it('every example applies without errors or warnings', async () => {
    const files = (await readdir(DIR)).filter((file) => file.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) {
      const applied = await applyDocuments(t.db.pool, [canaryKind], [{ file, text: await example(file) }], 'ConfigFile', createLogger('silent'));
      expect(applied.length, file).toBeGreaterThan(0);
      for (const item of applied) expect({ file, ok: item.ok, errors: item.errors, warnings: item.outcome?.warnings ?? [] }).toEqual({ file, ok: true, errors: [], warnings: [] });
    }
  });

  it('http.yaml checks this console', async () => {
    const results = await applyAndRun('http.yaml');
    expect(results['console health']).toMatchObject({ pass: true, message: expect.stringMatching(/^database ok, version \d+\.\d+\.\d+.* in \d+ ms$/) });
    expect(results['console version']).toMatchObject({ pass: true });
    expect(results['sign-in required']).toMatchObject({ pass: true });
  });

  it('icmp.yaml pings the loopback address', async () => {
    const results = await applyAndRun('icmp.yaml');
    expect(results.loopback).toMatchObject({ pass: true, message: expect.stringMatching(/^3\/3 replies, average [\d.]+ ms$/) });
  });

  it('folder.yaml checks /tmp', async () => {
    const results = await applyAndRun('folder.yaml');
    expect(results['room in /tmp']).toMatchObject({ pass: true, message: expect.stringMatching(/^\d+ MiB free, \d+ files$/) });
    expect(results['no stale files in /tmp']?.invalid).toBe(false);
  });

  it('databases.yaml passes against the local PostgreSQL, MariaDB and Redis', async () => {
    const results = await applyAndRun('databases.yaml');
    expect(Object.keys(results).length).toBeGreaterThan(0);
    for (const [name, result] of Object.entries(results)) expect({ name, pass: result.pass, message: result.message }).toMatchObject({ name, pass: true });
  });

  it('exec.yaml runs its scripts with CEL and Go template displays, a transform, dependsOn and artifacts', async () => {
    const results = await applyAndRun('exec.yaml');
    expect(results['disk report']).toMatchObject({ pass: true, message: expect.stringMatching(/^free: [\d.]+[KMGT]?$/) });
    expect(results.version).toMatchObject({ pass: true });
    expect(results.release).toMatchObject({ pass: true, message: 'deploying v1.4.2 as RELEASE' });
    const { rows } = await t.db.pool.query("SELECT name, namespace, status FROM checks WHERE transformed_from IS NOT NULL AND name LIKE 'queue %' ORDER BY name");
    expect(rows).toEqual([
      { name: 'queue billing', namespace: 'queues', status: 'unhealthy' },
      { name: 'queue mail', namespace: 'queues', status: 'healthy' },
    ]);
    const files = await t.db.pool.query("SELECT a.filename FROM artifacts a JOIN checks c ON c.id = a.check_id WHERE c.name = 'disk report'");
    expect(files.rows).toEqual([{ filename: 'disk.json' }]);
  });

  it('junit.yaml reads the sample report it ships', async () => {
    expect(await applyAndRun('junit.yaml')).toMatchObject({ 'smoke suite': { pass: true, message: '2 passed, 1 skipped in 2.4s' } });
  });
});
