import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35 (names valid UTF-8, the /api/db side): a JSON body whose string holds a lone UTF-16 surrogate
 * (`"\ud800"`, valid JSON, no valid UTF-8) reached the database, which answered with its own JSON error
 * text (22P02) for any table. Now every /api/db write (and rpc) is refused with 400 naming the field,
 * before any statement.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The body as raw JSON text, so the `\ud800` escape reaches the server as written. */
const post = (relation: string, body: string, method: 'POST' | 'PATCH' = 'POST', query = '') =>
  t.app.inject({ method, url: `/api/db/${relation}${query}`, headers: { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' }, payload: body });

const count = async (sql: string, values: unknown[] = []) => (await t.db.pool.query<{ n: number }>(sql, values)).rows[0]?.n ?? 0;
const VIEW_SPEC = '{"queries":{"namespaces":{"configs":{"types":["Kubernetes::Namespace"]}}},"columns":[{"name":"name","type":"string","primaryKey":true}]}';

function expectRefused(res: Awaited<ReturnType<typeof post>>, field: string): void {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json<{ code: string; message: string }>();
  expect(body.code).toBe('PGRST102');
  expect(body.message).toContain(`${field} is not valid UTF-8: it contains a lone surrogate (\\ud800`);
  // Never PostgreSQL's own text about JSON escapes.
  expect(body.message).not.toMatch(/Unicode|escape sequence|invalid input syntax/i);
}

describe('/api/db refuses a lone surrogate, naming the field, before any write', () => {
  it('a view named "\\ud800" (a json body column beside it)', async () => {
    const before = await count('SELECT count(*)::int AS n FROM views');
    expectRefused(await post('views', `{"name": "\\ud800", "namespace": "default", "spec": ${VIEW_SPEC}}`), 'name');
    expectRefused(await post('views', `{"name": "fine-view", "namespace": "default", "spec": {"columns": [{"name": "x\\ud800y"}]}}`), 'spec.columns[0].name');
    expect(await count('SELECT count(*)::int AS n FROM views')).toBe(before);
  });

  it('a text column of another table', async () => {
    expectRefused(await post('properties', '{"name": "h3.surrogate", "value": "a\\ud800"}'), 'value');
    expectRefused(await post('properties', '[{"name": "h3.ok", "value": "a"}, {"name": "h3.\\ud800", "value": "b"}]'), '[1].name');
    expect(await count("SELECT count(*)::int AS n FROM properties WHERE name LIKE 'h3.%'")).toBe(0);
  });

  it('an update, and a key that holds one', async () => {
    expect((await post('properties', '{"name": "h3.kept", "value": "before"}')).statusCode).toBe(201);
    expectRefused(await post('properties', '{"value": "\\ud800"}', 'PATCH', '?name=eq.h3.kept'), 'value');
    const key = await post('properties', '{"name": "h3.key", "\\ud800": "x"}');
    expect(key.statusCode, key.body).toBe(400);
    expect(key.json<{ message: string }>().message).toContain('a field name in the body is not valid UTF-8');
    expect((await t.db.pool.query<{ value: string }>("SELECT value FROM properties WHERE name = 'h3.kept'")).rows[0]?.value).toBe('before');
  });

  it('a surrogate pair (an emoji) is text like any other', async () => {
    const res = await post('properties', '{"name": "h3.emoji", "value": "ok \\ud83d\\ude00"}');
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.db.pool.query<{ value: string }>("SELECT value FROM properties WHERE name = 'h3.emoji'")).rows[0]?.value).toBe('ok \u{1f600}');
  });
});
