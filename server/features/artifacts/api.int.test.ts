import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/app';
import { applyCanary, canaryIdOf, runByName, uniqueName } from '../health/testing/check-harness';

/**
 * /api/artifacts at the HTTP edge (401 → 400 → 403 → 200) on the real app: artifacts an exec check
 * stored with its result, listed per result and downloaded, for people who may read the check.
 */
let t: TestApp;
let checkId = '';
let checkTime = '';
let artifacts: Array<{ id: string; filename: string; path: string; size: number; content_type?: string }> = [];
let viewer: Record<string, string> = {};
let nobody: { id: string; headers: Record<string, string> };
// A DNS-1123 canary name (docs/RESOURCES.md "Names"): uniqueName joins with '_'.
const canary = uniqueName('artifacts').replace('_', '-');

const listed = z.array(z.object({ id: z.string(), filename: z.string(), path: z.string(), size: z.number(), content_type: z.string().optional() }).loose());

beforeAll(async () => {
  t = await createTestApp();
  const applied = await applyCanary(
    t,
    `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ${canary}}
spec:
  exec:
    - name: report
      script: |
        mkdir -p out && printf '<h1>report</h1>' > out/report.html && printf 'héllo wörld\\n%.0s' $(seq 1 2000) > "out/naïve \\"name\\".log"
        echo "all done"
      artifacts:
        - path: out/*
        - path: /dev/stdout
`,
  );
  expect(applied).toMatchObject({ ok: true, errors: [] });
  const results = await runByName(t, canary);
  expect(results.report).toMatchObject({ pass: true });
  const { rows } = await t.db.pool.query<{ check_id: string; time: Date }>(
    'SELECT s.check_id, s.time FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1',
    [await canaryIdOf(t, canary)],
  );
  checkId = rows[0]?.check_id ?? '';
  checkTime = rows[0]?.time.toISOString() ?? '';
  viewer = (await t.userWith(['viewer'])).headers;
  nobody = await t.userWith([]);
  const res = await t.app.inject({ method: 'GET', url: `/api/artifacts/list?check_id=${checkId}&check_time=${encodeURIComponent(checkTime)}`, headers: viewer });
  artifacts = listed.parse(res.json());
});

afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/artifacts/list', () => {
  it('lists a result’s artifacts in the order they were collected, keyed by (check_id, check_time)', () => {
    expect(artifacts.map((artifact) => [artifact.filename, artifact.content_type])).toEqual([
      ['naïve "name".log', 'text/plain; charset=utf-8'],
      ['report.html', 'text/html; charset=utf-8'],
      ['stdout', 'text/plain; charset=utf-8'],
    ]);
    expect(artifacts[2]).toMatchObject({ path: 'stdout', size: 8, check_id: checkId, check_time: checkTime, truncated: false });
    expect(artifacts[0]?.size).toBe(Buffer.byteLength('héllo wörld\n') * 2000);
  });

  it('answers 401, then 400 naming every bad field, then 403 without health access, then 200', async () => {
    expect((await get(`/api/artifacts/list?check_id=${checkId}&check_time=${checkTime}`)).statusCode).toBe(401);
    const bad = await get('/api/artifacts/list?check_id=nope&check_time=yesterday', viewer);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: 'invalid_request',
      details: [
        { path: 'query.check_id', message: 'must be a UUID' },
        { path: 'query.check_time', message: 'must be a date-time (RFC 3339), as the result time' },
      ],
    });
    expect((await get(`/api/artifacts/list?check_id=${checkId}`, viewer)).json()).toMatchObject({ details: [{ path: 'query.check_time', message: 'is required with check_id' }] });
    const forbidden = await get(`/api/artifacts/list?check_id=${checkId}&check_time=${encodeURIComponent(checkTime)}`, nobody.headers);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ error: 'forbidden', details: { resource: 'canaries', action: 'read' } });
  });

  it('answers Mission Control’s path and an empty list for another time', async () => {
    const res = await get(`/api/artifacts/list/check/${checkId}/${encodeURIComponent(checkTime)}`, viewer);
    expect(res.statusCode).toBe(200);
    expect(listed.parse(res.json()).map((artifact) => artifact.id)).toEqual(artifacts.map((artifact) => artifact.id));
    const other = await get(`/api/artifacts/list?check_id=${checkId}&check_time=${encodeURIComponent(new Date(Date.parse(checkTime) + 1).toISOString())}`, viewer);
    expect(other.json()).toEqual([]);
  });
});

describe('GET /api/artifacts/download/{id}', () => {
  it('gives a viewer the file with its content type and file name, sandboxed', async () => {
    const html = artifacts.find((artifact) => artifact.filename === 'report.html');
    const res = await get(`/api/artifacts/download/${html?.id}`, { ...viewer, 'accept-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<h1>report</h1>');
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': `attachment; filename="report.html"; filename*=UTF-8''report.html`,
      'content-security-policy': "sandbox; default-src 'none'",
      'x-content-type-options': 'nosniff',
    });
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('sends the stored gzip as it is to a client that takes gzip, and names files RFC 6266’s way', async () => {
    const log = artifacts[0];
    const res = await get(`/api/artifacts/download/${log?.id}`, { ...viewer, 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).toString('utf8')).toBe('héllo wörld\n'.repeat(2000));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="na_ve _name_.log"; filename*=UTF-8''na%C3%AFve%20%22name%22.log`);
  });

  it('answers 401, 400, 403 without health access, and 404 JSON for an unknown or expired artifact', async () => {
    const id = artifacts[2]?.id ?? '';
    expect((await get(`/api/artifacts/download/${id}`)).statusCode).toBe(401);
    expect((await get('/api/artifacts/download/not-a-uuid', viewer)).json()).toMatchObject({ error: 'invalid_request', details: [{ path: 'params.id', message: 'must be a UUID' }] });
    expect((await get(`/api/artifacts/download/${id}`, nobody.headers)).statusCode).toBe(403);
    const unknown = await get('/api/artifacts/download/00000000-0000-4000-8000-000000000000', viewer);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'artifact 00000000-0000-4000-8000-000000000000 was not found (or it has expired)' });
    await t.db.pool.query(`UPDATE artifacts SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    try {
      expect((await get(`/api/artifacts/download/${id}`, viewer)).statusCode).toBe(404);
      expect(listed.parse((await get(`/api/artifacts/list?check_id=${checkId}&check_time=${encodeURIComponent(checkTime)}`, viewer)).json())).toHaveLength(2);
    } finally {
      await t.db.pool.query('UPDATE artifacts SET expires_at = now() + interval \'30 days\' WHERE id = $1', [id]);
    }
  });

  it('lets a person read the artifacts of a canary a permission names, and no other', async () => {
    const reader = await t.userWith([]);
    const canaryId = await canaryIdOf(t, canary);
    await t.db.pool.query(`INSERT INTO permissions (subject, subject_type, person_id, action, canary_id) VALUES ($1, 'person', $2, 'read', $3)`, [reader.id, reader.id, canaryId]);
    const res = await get(`/api/artifacts/download/${artifacts[2]?.id}`, { ...reader.headers, 'accept-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('all done');
    expect((await get(`/api/artifacts/download/${artifacts[2]?.id}`, nobody.headers)).statusCode).toBe(403);
  });
});

describe('artifacts with the result', () => {
  it('expire with the check history (check_statuses.retention_days)', async () => {
    const { rows } = await t.db.pool.query<{ days: number }>('SELECT DISTINCT extract(epoch FROM expires_at - check_time)::int / 86400 AS days FROM artifacts WHERE check_id = $1', [checkId]);
    expect(rows).toEqual([{ days: 30 }]);
  });

  it('are read through /api/db as rows without their content', async () => {
    const res = await get(`/api/db/artifacts?select=id,filename,size&check_id=eq.${checkId}&order=filename`, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([...artifacts].sort((a, b) => (a.filename < b.filename ? -1 : 1)).map(({ id, filename, size }) => ({ id, filename, size })));
    expect((await get('/api/db/artifacts?select=content', viewer)).statusCode).toBe(400);
    expect((await get('/api/db/artifacts?select=id', nobody.headers)).statusCode).toBe(403);
  });

  it('say in the result’s error what the limits left out', async () => {
    const name = uniqueName('big-artifacts').replace('_', '-');
    await applyCanary(t, `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ${name}}
spec:
  exec:
    - name: big
      script: truncate -s 11M big.bin
      artifacts: [{path: big.bin}]
`);
    const result = (await runByName(t, name)).big;
    expect(result).toMatchObject({ pass: true });
    const { rows } = await t.db.pool.query<{ error: string; size: number; stored_size: number }>(
      'SELECT s.error, a.size, a.stored_size FROM check_statuses s JOIN checks c ON c.id = s.check_id JOIN artifacts a ON a.check_id = s.check_id AND a.check_time = s.time WHERE c.canary_id = $1',
      [await canaryIdOf(t, name)],
    );
    expect(rows).toEqual([{ error: expect.stringMatching(/^artifact \/.+\/big\.bin \(11\.0 MiB\) is kept truncated to its first 10\.0 MiB$/), size: 11 * 1024 * 1024, stored_size: 10 * 1024 * 1024 }]);
  });
});
