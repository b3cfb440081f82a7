import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/**
 * Spec §9 (no secret leaves the server) for canaries: /api/db answers canary and check specs with ******
 * in place of each secret (migration 0011), and the editor's round trip (save what it was shown) keeps the
 * stored secrets, in the canary and in its check rows.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...t.adminHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body, json: (): unknown => JSON.parse(res.body) };
}

const SECRETS = ['pg-pass-42', 'pg-field-42', 'http-pass-42', 'tok-42', 'prom-bearer-42', 'env-pass-42'];

const spec = {
  schedule: '@never',
  env: { DB_PASSWORD: { value: 'env-pass-42' }, GREETING: { value: 'hello' } },
  postgres: [{ name: 'db', url: 'postgres://monitor:pg-pass-42@127.0.0.1:5432/app', password: 'pg-field-42', query: 'SELECT 1' }],
  http: [
    {
      name: 'basic',
      url: 'http://127.0.0.1:9/health',
      username: 'probe',
      password: { value: 'http-pass-42' },
      headers: [{ name: 'Authorization', value: 'Bearer tok-42' }, { name: 'Accept', value: 'application/json' }],
    },
  ],
  prometheus: [{ name: 'up', url: 'http://127.0.0.1:9', query: 'up', bearer: { value: 'prom-bearer-42' } }],
};

interface Shown {
  env: Record<string, { value: string }>;
  postgres: Array<Record<string, unknown>>;
  http: Array<Record<string, unknown>>;
  prometheus: Array<Record<string, unknown>>;
}

function isShown(value: unknown): value is Shown {
  return typeof value === 'object' && value !== null && 'http' in value && 'postgres' in value;
}

describe('canary secrets', () => {
  it('are shown masked through /api/db, and a masked spec saved back keeps them', async () => {
    const created = await call('POST', '/api/canary/canaries', { name: 'with-secrets', spec });
    expect(created.status).toBe(201);
    const id = String(Reflect.get(Object(created.json()), 'id'));

    const shown = await call('GET', `/api/db/canaries?id=eq.${id}&select=spec`);
    expect(shown.status).toBe(200);
    for (const secret of SECRETS) expect(shown.body).not.toContain(secret);
    const rows = shown.json();
    const shownSpec: unknown = Array.isArray(rows) ? Reflect.get(Object(rows[0]), 'spec') : undefined;
    if (!isShown(shownSpec)) throw new Error(`unexpected answer: ${shown.body}`);
    expect(shownSpec.postgres[0]).toMatchObject({ url: 'postgres://monitor:******@127.0.0.1:5432/app', password: '******', query: 'SELECT 1' });
    expect(shownSpec.http[0]).toMatchObject({
      username: 'probe',
      password: '******',
      headers: [{ name: 'Authorization', value: '******' }, { name: 'Accept', value: 'application/json' }],
    });
    expect(shownSpec.prometheus[0]).toMatchObject({ bearer: '******' });
    expect(shownSpec.env).toEqual({ DB_PASSWORD: { value: '******' }, GREETING: { value: 'hello' } });

    // The check rows carry their part of the spec (a check's Spec tab): masked too, endpoints without passwords.
    const checks = await call('GET', `/api/db/checks?canary_id=eq.${id}&select=name,endpoint,spec`);
    expect(checks.status).toBe(200);
    expect(checks.body).toContain('******');
    for (const secret of SECRETS) expect(checks.body).not.toContain(secret);

    // What the editor was shown is a valid spec to check while editing.
    const validated = await call('POST', '/api/canary/canaries/validate', { spec: shownSpec });
    expect(Reflect.get(Object(validated.json()), 'errors')).toEqual([]);

    // The editor saves what it was shown, with one field changed (its form writes a secret as {value}): the
    // secrets stay, the change is made.
    const edited = { ...shownSpec, postgres: [{ ...shownSpec.postgres[0], password: { value: '******' }, query: 'SELECT 2' }] };
    const saved = await call('PUT', `/api/canary/canaries/${id}`, { name: 'with-secrets', spec: edited });
    expect(saved.status).toBe(200);
    expect(Reflect.get(Object(saved.json()), 'action')).toBe('updated');
    const stored = await t.db.pool.query<{ spec: typeof spec }>('SELECT spec FROM canaries WHERE id = $1', [id]);
    expect(stored.rows[0]?.spec).toEqual({ ...spec, postgres: [{ ...spec.postgres[0], query: 'SELECT 2' }] });
    const storedChecks = await t.db.pool.query<{ type: string; spec: Record<string, unknown> }>(
      'SELECT type, spec FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY type',
      [id],
    );
    expect(JSON.stringify(storedChecks.rows)).not.toContain('******');
    expect(storedChecks.rows.find((row) => row.type === 'postgres')?.spec).toMatchObject({ url: spec.postgres[0]?.url, password: 'pg-field-42', query: 'SELECT 2' });
    expect(storedChecks.rows.find((row) => row.type === 'http')?.spec).toEqual(spec.http[0]);

    // Saved back unchanged, nothing changes.
    const again = await call('PUT', `/api/canary/canaries/${id}`, { name: 'with-secrets', spec: edited });
    expect(Reflect.get(Object(again.json()), 'action')).toBe('unchanged');
  });

  it('keeps what the user typed in place of a mask', async () => {
    const created = await call('POST', '/api/canary/canaries', { name: 'retyped', spec: { schedule: '@never', http: [{ name: 'h', url: 'http://127.0.0.1:9', password: 'old-pass-1' }] } });
    const id = String(Reflect.get(Object(created.json()), 'id'));
    const saved = await call('PUT', `/api/canary/canaries/${id}`, { name: 'retyped', spec: { schedule: '@never', http: [{ name: 'h', url: 'http://127.0.0.1:9', password: 'new-pass-2' }] } });
    expect(saved.status).toBe(200);
    const stored = await t.db.pool.query<{ spec: { http: Array<{ password: string }> } }>('SELECT spec FROM canaries WHERE id = $1', [id]);
    expect(stored.rows[0]?.spec.http[0]?.password).toBe('new-pass-2');
  });
});
