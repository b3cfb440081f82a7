import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/** /api/db/config_scrapers_summary (migration 0011): the scrapers list in one read. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function scraper(name: string, spec: Record<string, unknown>): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id', [name, JSON.stringify(spec)]);
  return rows[0]?.id ?? '';
}

describe('config_scrapers_summary', () => {
  it("answers each scraper with its latest run, that run's errors and its live items, secrets masked", async () => {
    const busy = await scraper('busy', { sql: [{ connection: 'postgres://reader:reader-pass-7@127.0.0.1/app', query: 'SELECT 1' }] });
    const idle = await scraper('idle', { file: [{ paths: ['/tmp/x.yaml'] }] });
    await t.db.pool.query(
      `INSERT INTO job_history (name, resource_type, resource_id, status, error_count, time_start) VALUES
         ('Scraper', 'config_scraper', $1, 'SUCCESS', 0, now() - interval '2 hours'),
         ('Scraper', 'config_scraper', $1, 'FAILED', 2, now() - interval '1 hour'),
         ('Other', 'canary', $1, 'SUCCESS', 0, now())`,
      [busy],
    );
    await t.db.pool.query(
      `INSERT INTO config_items (scraper_id, type, name, deleted_at) VALUES ($1, 'T', 'a', NULL), ($1, 'T', 'b', NULL), ($1, 'T', 'gone', now())`,
      [busy],
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/db/config_scrapers_summary?select=id,name,spec,last_job_status,last_job_time,last_job_error_count,item_count&order=name',
      headers: t.adminHeaders,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('reader-pass-7');
    const rows = res.json<Array<Record<string, unknown>>>();
    expect(rows.map((row) => [row.id, row.name, row.last_job_status, row.last_job_error_count, row.item_count])).toEqual([
      [busy, 'busy', 'FAILED', 2, 2],
      [idle, 'idle', null, null, 0],
    ]);
    expect(typeof rows[0]?.last_job_time).toBe('string');
    const viewer = await t.userWith(['viewer']);
    expect((await t.app.inject({ method: 'GET', url: '/api/db/config_scrapers_summary', headers: viewer.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/db/config_scrapers_summary', headers: t.adminHeaders, payload: { name: 'x' } })).statusCode).not.toBe(201);
  });
});
