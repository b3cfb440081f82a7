import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './testing/fixture';

let f: Fixture;

beforeAll(async () => {
  f = await createFixture();
});

afterAll(async () => {
  await f?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

async function call(method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await f.app.inject({
    method,
    url: `/api/db/${url}`,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body, json: (): unknown => JSON.parse(res.body) };
}

const representation = { prefer: 'return=representation' };

describe('POST', () => {
  it('inserts one object: 201, minimal by default, the row with return=representation', async () => {
    const minimal = await call('POST', 'reviews', { book_id: 2, stars: 3, body: 'ok' });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toBe('');
    expect(minimal.headers['content-range']).toBe('*/*');
    const full = await call('POST', 'reviews?select=stars,body,book:books(title)', { book_id: 2, stars: 4, body: 'good' }, representation);
    expect(full.status).toBe(201);
    expect(full.json()).toEqual([{ stars: 4, body: 'good', book: { title: 'Engines' } }]);
    expect(full.headers['preference-applied']).toBe('return=representation');
  });

  it('inserts an array, with columns= choosing the keys', async () => {
    const res = await call('POST', 'authors?columns=name,rating&select=name,rating,email', [{ name: 'Dee', rating: 1, email: 'ignored@x' }, { name: 'Eve' }], representation);
    expect(res.status).toBe(201);
    expect(res.json()).toEqual([
      { name: 'Dee', rating: 1, email: null },
      { name: 'Eve', rating: null, email: null },
    ]);
    const mismatched = await call('POST', 'authors', [{ name: 'A' }, { name: 'B', rating: 2 }]);
    expect(mismatched.status).toBe(400);
    expect(mismatched.json()).toMatchObject({ code: 'PGRST102', message: 'All object keys must match' });
  });

  it('uses column defaults for missing keys with Prefer: missing=default', async () => {
    const res = await call('POST', 'authors?columns=name,tags&select=name,tags', [{ name: 'Fay' }], { prefer: 'return=representation,missing=default' });
    expect(res.json()).toEqual([{ name: 'Fay', tags: [] }]);
  });

  it('returns a Location with return=headers-only', async () => {
    const res = await call('POST', 'books', { title: 'Located' }, { prefer: 'return=headers-only' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(/^\/books\?id=eq\.\d+$/);
    expect(res.body).toBe('');
  });

  it('upserts with merge-duplicates and ignore-duplicates on a declared conflict target', async () => {
    const merged = await call('POST', 'books?on_conflict=title&select=title,pages', [{ title: 'Notes', pages: 121 }, { title: 'Fresh', pages: 1 }], { prefer: 'resolution=merge-duplicates,return=representation' });
    expect(merged.status).toBe(201);
    expect(merged.json()).toEqual([{ title: 'Notes', pages: 121 }, { title: 'Fresh', pages: 1 }]);
    const ignored = await call('POST', 'books?on_conflict=title&select=title', [{ title: 'Notes', pages: 1 }], { prefer: 'resolution=ignore-duplicates,return=representation' });
    expect(ignored.json()).toEqual([]);
    expect((await f.db.pool.query("SELECT pages FROM books WHERE title = 'Notes'")).rows).toEqual([{ pages: 121 }]);
    const badTarget = await call('POST', 'books?on_conflict=pages', [{ title: 'x' }], { prefer: 'resolution=merge-duplicates' });
    expect(badTarget.status).toBe(400);
    expect(badTarget.json()).toMatchObject({ code: '42P10' });
  });

  it('maps constraint errors: 23505 and 23503 are 409, 23502 and 23514 are 400', async () => {
    const duplicate = await call('POST', 'books', { title: 'Notes' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "books_title_key"', details: 'Key (title)=(Notes) already exists.' });
    const orphan = await call('POST', 'books', { title: 'Orphan', author_id: 999 });
    expect(orphan.status).toBe(409);
    expect(orphan.json()).toMatchObject({ code: '23503' });
    const nameless = await call('POST', 'authors', { name: null });
    expect(nameless.status).toBe(400);
    expect(nameless.json()).toMatchObject({ code: '23502' });
    const stars = await call('POST', 'reviews', { book_id: 1, stars: 9 });
    expect(stars.status).toBe(400);
    expect(stars.json()).toMatchObject({ code: '23514' });
    const badValue = await call('POST', 'reviews', { book_id: 'one', stars: 1 });
    expect(badValue.status).toBe(400);
    expect(badValue.json()).toMatchObject({ code: '22P02' });
  });

  it('refuses unknown, hidden and non-writable columns, bad bodies and read-only relations', async () => {
    expect((await call('POST', 'authors', { name: 'X', nope: 1 })).json()).toMatchObject({ code: 'PGRST204', message: "Could not find the 'nope' column of 'authors' in the schema cache" });
    expect((await call('POST', 'authors', { name: 'X', secret: 's' })).json()).toMatchObject({ code: 'PGRST204' });
    const notWritable = await call('POST', 'authors', { name: 'X', created_by: '00000000-0000-0000-0000-000000000000' });
    expect(notWritable.status).toBe(403);
    expect(notWritable.json()).toMatchObject({ code: '42501' });
    const invalid = await call('POST', 'authors', '{"name": ');
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'PGRST102' });
    expect((await call('POST', 'authors', '42')).json()).toMatchObject({ code: 'PGRST102' });
    const text = await f.app.inject({ method: 'POST', url: '/api/db/authors', headers: { 'content-type': 'text/plain' }, payload: 'name=x' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'PGRST107' });
    const put = await call('PUT', 'authors?id=eq.1', { name: 'x' });
    expect(put.status).toBe(405);
    expect(put.json()).toMatchObject({ code: 'PGRST117' });
  });

  it('inserts nothing for an empty array', async () => {
    const res = await call('POST', 'reviews', [], representation);
    expect(res.status).toBe(201);
    expect(res.json()).toEqual([]);
  });
});

describe('PATCH and DELETE', () => {
  it('updates the filtered rows: 204 minimal, 200 with representation', async () => {
    const minimal = await call('PATCH', 'books?title=eq.Stories', { pages: 55 });
    expect(minimal.status).toBe(204);
    expect(minimal.headers['content-range']).toBe('0-0/*');
    const full = await call('PATCH', 'books?title=eq.Stories&select=title,pages', { pages: 56 }, { prefer: 'return=representation,count=exact' });
    expect(full.status).toBe(200);
    expect(full.json()).toEqual([{ title: 'Stories', pages: 56 }]);
    expect(full.headers['content-range']).toBe('0-0/1');
  });

  it('refuses PATCH and DELETE without a filter, and limit on them', async () => {
    const patch = await call('PATCH', 'books', { pages: 7777 });
    expect(patch.status).toBe(400);
    expect(patch.json()).toMatchObject({ code: '21000', message: 'UPDATE requires a WHERE clause' });
    const del = await call('DELETE', 'books?select=title');
    expect(del.status).toBe(400);
    expect(del.json()).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' });
    expect((await call('DELETE', 'books?id=gt.0&limit=1')).status).toBe(400);
    expect((await f.db.pool.query('SELECT count(*)::int AS n FROM books WHERE pages = 7777')).rows).toEqual([{ n: 0 }]);
  });

  it('refuses columns that are not updatable and PATCH bodies that are not objects', async () => {
    expect((await call('PATCH', 'books?id=eq.1', { author_id: 2 })).json()).toMatchObject({ code: '42501' });
    expect((await call('PATCH', 'books?id=eq.1', [{ pages: 2 }])).json()).toMatchObject({ code: 'PGRST102' });
  });

  it('deletes rows: hard delete returns them with representation', async () => {
    await call('POST', 'books', { title: 'Doomed' });
    const res = await call('DELETE', 'books?title=eq.Doomed&select=title', undefined, representation);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([{ title: 'Doomed' }]);
    expect((await f.db.pool.query("SELECT count(*)::int AS n FROM books WHERE title = 'Doomed'")).rows).toEqual([{ n: 0 }]);
  });

  it('soft-deletes where the registry says so: deleted_at is set, the row is hidden', async () => {
    await call('POST', 'authors', { name: 'Soft' });
    const res = await call('DELETE', 'authors?name=eq.Soft');
    expect(res.status).toBe(204);
    const { rows } = await f.db.pool.query<{ deleted: boolean }>("SELECT deleted_at IS NOT NULL AS deleted FROM authors WHERE name = 'Soft'");
    expect(rows).toEqual([{ deleted: true }]);
    expect((await call('GET', 'authors?name=eq.Soft')).json()).toEqual([]);
    expect((await call('GET', 'authors?name=eq.Soft&deleted_at=not.is.null&select=name')).json()).toEqual([{ name: 'Soft' }]);
    // A soft-deleted row is no longer a target for PATCH.
    const patch = await call('PATCH', 'authors?name=eq.Soft&select=name', { rating: 1 }, representation);
    expect(patch.json()).toEqual([]);
  });

  it('rolls a singular write back unless exactly one row is affected', async () => {
    const res = await call('PATCH', 'books?pages=gt.0&select=title', { summary: 'overwritten' }, { accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' });
    expect(res.status).toBe(406);
    expect(res.json()).toMatchObject({ code: 'PGRST116' });
    expect((await f.db.pool.query("SELECT count(*)::int AS n FROM books WHERE summary = 'overwritten'")).rows).toEqual([{ n: 0 }]);
    const one = await call('PATCH', 'books?title=eq.Notes&select=title', { summary: 'one' }, { accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' });
    expect(one.status).toBe(200);
    expect(one.json()).toEqual({ title: 'Notes' });
  });
});

describe('preferences and profiles', () => {
  it('rolls back a write over max-affected under handling=strict (PGRST124)', async () => {
    const res = await call('PATCH', 'books?pages=gt.0', { summary: 'too many' }, { prefer: 'handling=strict, max-affected=1' });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PGRST124', details: expect.stringMatching(/^The query affects \d+ rows$/) });
    expect((await f.db.pool.query("SELECT count(*)::int AS n FROM books WHERE summary = 'too many'")).rows).toEqual([{ n: 0 }]);
    const ok = await call('PATCH', 'books?title=eq.Notes', { summary: 'within' }, { prefer: 'handling=strict, max-affected=1' });
    expect(ok.status).toBe(204);
    expect(ok.headers['preference-applied']).toBe('handling=strict, max-affected=1');
  });

  it('serves only the public schema (PGRST106)', async () => {
    expect((await call('GET', 'books?select=id&limit=1', undefined, { 'accept-profile': 'public' })).status).toBe(200);
    const other = await call('GET', 'books', undefined, { 'accept-profile': 'pg_catalog' });
    expect(other.status).toBe(406);
    expect(other.json()).toMatchObject({ code: 'PGRST106', hint: 'Only the following schemas are exposed: public' });
  });
});

describe('rpc', () => {
  it('calls a scalar function by GET and POST, with defaults', async () => {
    expect((await call('GET', 'rpc/add_them?a=2&b=3')).json()).toBe(5);
    expect((await call('GET', 'rpc/add_them?a=2')).json()).toBe(3);
    expect((await call('POST', 'rpc/add_them', { a: 10, b: 20 })).json()).toBe(30);
    expect((await call('GET', 'rpc/numbers?n=3')).json()).toEqual([1, 2, 3]);
  });

  it('selects, filters, orders and pages a set-returning function', async () => {
    const res = await call('GET', 'rpc/books_by?author=1&select=title,pages&pages=gt.100&order=pages.desc', undefined, { prefer: 'count=exact' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([{ title: 'Engines', pages: 300 }, { title: 'Notes', pages: 121 }]);
    expect(res.headers['content-range']).toBe('0-1/2');
    const post = await call('POST', 'rpc/books_by?select=title&limit=1&order=id', { author: 1 });
    expect(post.json()).toEqual([{ title: 'Notes' }]);
    // Only the registered output columns exist.
    expect((await call('GET', 'rpc/books_by?author=1&select=summary')).json()).toMatchObject({ code: '42703' });
    expect((await call('GET', 'rpc/author_stats?order=author_id&author_id=lte.2')).json()).toEqual([{ author_id: 1, books: 2 }, { author_id: 2, books: 1 }]);
    // SETOF books: embeds like the books relation.
    const embedded = await call('GET', 'rpc/books_by?author=1&select=title,reviews(stars)&order=id&limit=1');
    expect(embedded.json()).toEqual([{ title: 'Notes', reviews: [{ stars: 5 }, { stars: 4 }] }]);
  });

  it('runs GET read-only (a writing function answers 405 25006) and POST for writes', async () => {
    const get = await call('GET', 'rpc/log_call?note=x');
    expect(get.status).toBe(405);
    expect(get.json()).toMatchObject({ code: '25006' });
    const post = await call('POST', 'rpc/log_call?select=note', { note: 'hello' });
    expect(post.status).toBe(200);
    expect(post.json()).toEqual([{ note: 'hello' }]);
  });

  it('cancels a statement past the time limit with 400 57014', async () => {
    expect((await call('GET', 'rpc/slow?ms=10')).json()).toBe(1);
    const res = await call('GET', 'rpc/slow?ms=3000');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
  });

  it('answers 404 PGRST202 for unknown functions and argument sets', async () => {
    const unknown = await call('POST', 'rpc/nothing', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'PGRST202', message: 'Could not find the function public.nothing(a) in the schema cache' });
    expect((await call('GET', 'rpc/add_them')).json()).toMatchObject({ code: 'PGRST202', message: 'Could not find the function public.add_them without parameters in the schema cache' });
    expect((await call('POST', 'rpc/add_them', { a: 1, c: 2 })).status).toBe(404);
    expect((await call('PATCH', 'rpc/add_them', { a: 1 })).json()).toMatchObject({ code: 'PGRST101' });
    expect((await call('GET', 'rpc/add_them?a=x')).json()).toMatchObject({ code: '22P02' });
  });
});
