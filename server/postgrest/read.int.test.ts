import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './testing/fixture';

let f: Fixture;

beforeAll(async () => {
  f = await createFixture();
});

afterAll(async () => {
  await f?.close();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await f.app.inject({ method: 'GET', url: `/api/db/${url}`, headers });
  return { status: res.statusCode, headers: res.headers, body: res.body, json: (): unknown => JSON.parse(res.body) };
}

/** The `key` of every row, for terse assertions. */
async function pluck(url: string, key = 'name'): Promise<unknown[]> {
  const res = await get(url);
  expect(res.status, res.body).toBeLessThan(300);
  const rows = res.json();
  if (!Array.isArray(rows)) throw new Error(`not an array: ${res.body}`);
  return rows.map((row: unknown) => (typeof row === 'object' && row !== null ? Object.entries(row).find(([k]) => k === key)?.[1] : undefined));
}

describe('select', () => {
  it('expands * to the readable columns only', async () => {
    const res = await get('authors?order=id&limit=1');
    expect(res.status).toBe(200);
    const rows = res.json();
    const row: unknown = Array.isArray(rows) ? rows[0] : undefined;
    expect(Object.keys(typeof row === 'object' && row !== null ? row : {}).sort()).toEqual(['born', 'created_at', 'created_by', 'data', 'deleted_at', 'email', 'id', 'name', 'rating', 'tags']);
    expect(res.body).not.toContain('hunter2');
  });

  it('supports aliases, casts and JSON paths (with alias)', async () => {
    const res = await get('authors?select=id,n:name,data->>city,papers:data->stats->papers,born::text,rating::int&order=id&limit=2');
    expect(res.json()).toEqual([
      { id: 1, n: 'Ada', city: 'London', papers: 3, born: '1815-12-10', rating: 5 },
      { id: 2, n: 'Bob', city: 'Paris', papers: 0, born: '1950-01-01', rating: null },
    ]);
  });

  it('indexes JSON arrays with numeric keys', async () => {
    expect(await get('authors?select=first:data->langs->>0&id=eq.1').then((r) => r.json())).toEqual([{ first: 'en' }]);
  });

  it('answers 42703 for unknown and hidden columns, in select, filters and order', async () => {
    for (const url of ['authors?select=secret', 'authors?secret=eq.hunter2', 'authors?order=secret', 'authors?select=nope', 'authors?select=secret->>x']) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: '42703' });
    }
  });

  it('rejects bad select syntax with PGRST100', async () => {
    for (const url of ['authors?select=id,(', 'authors?select=name::evil', 'authors?select=books(title', 'authors?select=a:', 'authors?select=...books(title)']) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'PGRST100', hint: null });
    }
    expect((await get('authors?select=count()')).json()).toMatchObject({ code: 'PGRST123' });
  });
});

describe('filters', () => {
  it('compares with eq neq gt gte lt lte', async () => {
    expect(await pluck('authors?id=eq.2')).toEqual(['Bob']);
    expect(await pluck('authors?id=neq.2&order=id')).toEqual(['Ada', 'Cleo']);
    expect(await pluck('authors?id=gt.1&order=id')).toEqual(['Bob', 'Cleo']);
    expect(await pluck('authors?id=gte.2&id=lte.2')).toEqual(['Bob']);
    expect(await pluck('authors?id=lt.2')).toEqual(['Ada']);
    expect(await pluck('authors?born=gt.1900-01-01&order=born')).toEqual(['Bob', 'Cleo']);
  });

  it('matches patterns with like, ilike (* as wildcard), match and imatch', async () => {
    expect(await pluck('authors?name=like.*o*&order=id')).toEqual(['Bob', 'Cleo']);
    expect(await pluck('authors?name=ilike.a*')).toEqual(['Ada']);
    expect(await pluck('authors?name=match.^C')).toEqual(['Cleo']);
    expect(await pluck('authors?name=imatch.^c')).toEqual(['Cleo']);
    expect(await pluck('authors?id=like.3')).toEqual(['Cleo']);
    expect(await pluck('authors?name=like(any).{A*,C*}&order=id')).toEqual(['Ada', 'Cleo']);
    expect(await pluck('authors?id=eq(any).{1,3}&order=id')).toEqual(['Ada', 'Cleo']);
  });

  it('filters with in (quoted values keep commas) and is', async () => {
    expect(await pluck('authors?name=in.(Ada,"Bob",Zed)&order=id')).toEqual(['Ada', 'Bob']);
    expect(await pluck('books?title=in.("Notes","a,b")', 'title')).toEqual(['Notes']);
    expect(await pluck('authors?id=in.()')).toEqual([]);
    expect(await pluck('authors?email=is.null')).toEqual(['Bob']);
    expect(await pluck('authors?email=not.is.null&order=id')).toEqual(['Ada', 'Cleo']);
    expect(await pluck('books?published=is.true&order=id', 'title')).toEqual(['Notes', 'Stories']);
    expect(await pluck('books?published=is.false', 'title')).toEqual(['Engines']);
    expect(await pluck('books?published=is.unknown', 'title')).toEqual(['Lost']);
    expect(await pluck('books?published=isdistinct.true&order=id', 'title')).toEqual(['Engines', 'Lost']);
  });

  it('uses cs, cd and ov on arrays, jsonb and ranges', async () => {
    expect(await pluck('authors?tags=cs.{math}')).toEqual(['Ada']);
    expect(await pluck('authors?tags=cd.{math,poetry,fiction}&order=id')).toEqual(['Ada', 'Bob', 'Cleo']);
    expect(await pluck('authors?tags=ov.{fiction,x}')).toEqual(['Bob']);
    expect(await pluck('authors?data=cs.{"city":"Paris"}')).toEqual(['Bob']);
    expect(await pluck('books?span=ov.[8,9)', 'title')).toEqual(['Notes', 'Engines']);
    expect(await pluck('books?span=sl.[30,40)&order=id', 'title')).toEqual(['Notes', 'Engines']);
    expect(await pluck('books?span=adj.[20,30)', 'title')).toEqual(['Engines']);
  });

  it('searches text with fts, plfts, phfts and wfts', async () => {
    expect(await pluck('books?tsv=fts.engine&order=id', 'title')).toEqual(['Notes', 'Engines']);
    expect(await pluck('books?summary=fts(english).engines', 'title')).toEqual(['Notes', 'Engines']);
    expect(await pluck('books?tsv=plfts.steam engines', 'title')).toEqual(['Engines']);
    expect(await pluck('books?tsv=phfts(english).fast city', 'title')).toEqual(['Stories']);
    expect(await pluck('books?tsv=wfts.numbers -steam', 'title')).toEqual(['Notes']);
    expect(await pluck('books?tsv=not.fts.engine&order=id', 'title')).toEqual(['Stories', 'Lost']);
  });

  it('negates with not. and combines with or/and, nested and negated', async () => {
    expect(await pluck('authors?name=not.eq.Ada&order=id')).toEqual(['Bob', 'Cleo']);
    expect(await pluck('books?or=(pages.gt.200,and(published.is.true,pages.lt.100))&order=id', 'title')).toEqual(['Engines', 'Stories']);
    expect(await pluck('books?and=(pages.gte.50,or(title.eq.Notes,title.eq.Stories))&order=id', 'title')).toEqual(['Notes', 'Stories']);
    expect(await pluck('books?not.or=(pages.gt.100,published.is.null)', 'title')).toEqual(['Stories']);
    expect(await pluck('books?or=(title.eq."Notes",title.in.("Lost","x,y"))&order=id', 'title')).toEqual(['Notes', 'Lost']);
    expect(await pluck('books?or=(not.and(pages.gt.10,pages.lt.200))&order=id', 'title')).toEqual(['Engines', 'Lost']);
  });

  it('filters on JSON paths', async () => {
    expect(await pluck('authors?data->>city=eq.London')).toEqual(['Ada']);
    expect(await pluck('authors?data->stats->papers=gt.1')).toEqual(['Ada']);
    expect(await pluck('authors?or=(data->>city.eq.Paris,data->>city.eq.London)&order=id')).toEqual(['Ada', 'Bob']);
  });

  it('rejects bad filters with PGRST100 and bad values with 22P02', async () => {
    for (const url of ['authors?id=eq', 'authors?id=foo.1', 'authors?id=in.1,2', 'authors?id=is.maybe', 'authors?or=(id.eq.1', 'authors?limit=-1', 'authors?offset=x', 'authors?order=id.sideways.up(']) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'PGRST100' });
    }
    const bad = await get('authors?id=eq.abc');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: '22P02', message: 'invalid input syntax for type integer: "abc"', details: null, hint: null });
  });

  it('binds values: an injection attempt stays a value', async () => {
    const res = await get(`authors?name=eq.${encodeURIComponent("x'; DROP TABLE authors; --")}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([]);
    const alias = await get(`authors?select=${encodeURIComponent('a"b:name')}&id=eq.1`);
    expect(alias.json()).toEqual([{ 'a"b': 'Ada' }]);
    const key = await get(`authors?select=${encodeURIComponent("x:data->>city' OR 1=1; --")}&id=eq.1`);
    expect(key.status).toBe(200);
    expect(key.json()).toEqual([{ x: null }]);
    const nul = await get(`authors?select=${encodeURIComponent('a\u0000b:name')}`);
    expect(nul.status).toBe(400);
    expect(nul.json()).toMatchObject({ code: 'PGRST100' });
    const parens = await get(`authors?select=${encodeURIComponent("x:data->>city') FROM unregistered_secrets --")}`);
    expect(parens.status).toBe(400);
    expect(parens.body).not.toContain('top-secret');
    expect((await f.db.pool.query('SELECT count(*)::int AS n FROM authors')).rows[0]).toEqual({ n: 4 });
  });

  it('hides soft-deleted rows unless the query filters deleted_at', async () => {
    expect(await pluck('authors?name=eq.Gone')).toEqual([]);
    expect(await pluck('authors?deleted_at=not.is.null')).toEqual(['Gone']);
    expect(await pluck('authors?or=(deleted_at.is.null,deleted_at.not.is.null)&order=id')).toEqual(['Ada', 'Bob', 'Cleo', 'Gone']);
  });
});

describe('order and paging', () => {
  it('orders by several columns with nullsfirst/nullslast', async () => {
    expect(await pluck('authors?order=rating.desc.nullslast')).toEqual(['Ada', 'Cleo', 'Bob']);
    expect(await pluck('authors?order=rating.desc.nullsfirst')).toEqual(['Bob', 'Ada', 'Cleo']);
    expect(await pluck('books?order=published.asc.nullsfirst,pages.desc', 'title')).toEqual(['Lost', 'Engines', 'Notes', 'Stories']);
    expect(await pluck('authors?order=data->>city.asc.nullslast,id')).toEqual(['Ada', 'Bob', 'Cleo']);
  });

  it('pages with limit and offset', async () => {
    expect(await pluck('authors?order=id&limit=1&offset=1')).toEqual(['Bob']);
    expect(await pluck('authors?order=id&limit=0')).toEqual([]);
  });

  it('answers Content-Range with and without count, and 206 for a partial window', async () => {
    const partial = await get('authors?order=id&limit=2', { prefer: 'count=exact' });
    expect(partial.status).toBe(206);
    expect(partial.headers['content-range']).toBe('0-1/3');
    expect(partial.headers['preference-applied']).toBe('count=exact');
    const all = await get('authors?order=id', { prefer: 'count=exact' });
    expect(all.status).toBe(200);
    expect(all.headers['content-range']).toBe('0-2/3');
    const noCount = await get('authors?order=id&limit=2');
    expect(noCount.status).toBe(200);
    expect(noCount.headers['content-range']).toBe('0-1/*');
    const empty = await get('authors?id=eq.99', { prefer: 'count=exact' });
    expect(empty.status).toBe(200);
    expect(empty.headers['content-range']).toBe('*/0');
    expect((await get('authors?id=eq.99')).headers['content-range']).toBe('*/*');
  });

  it('honours the Range header, intersected with limit/offset', async () => {
    const res = await get('authors?order=id', { range: '1-1', 'range-unit': 'items', prefer: 'count=exact' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('1-1/3');
    expect(res.json()).toMatchObject([{ name: 'Bob' }]);
    const open = await get('authors?order=id', { range: '1-' });
    expect(open.headers['content-range']).toBe('1-2/*');
    const both = await get('authors?order=id&offset=1&limit=5', { range: '0-1' });
    expect(both.json()).toMatchObject([{ name: 'Bob' }]);
  });

  it('answers 416 PGRST103 past the end and for an inverted range', async () => {
    const past = await get('authors?offset=10', { prefer: 'count=exact' });
    expect(past.status).toBe(416);
    expect(past.json()).toEqual({ code: 'PGRST103', message: 'Requested range not satisfiable', details: 'An offset of 10 was requested, but there are only 3 rows.', hint: null });
    const inverted = await get('authors', { range: '5-2' });
    expect(inverted.status).toBe(416);
    expect(inverted.json()).toMatchObject({ code: 'PGRST103' });
  });
});

describe('embedding', () => {
  it('embeds many-to-one with a hint, and one-to-many', async () => {
    const res = await get('books?select=title,author:authors!books_author_id_fkey(name),editor:authors!editor_id(name),reviews(stars)&order=id&limit=2');
    expect(res.json()).toEqual([
      { title: 'Notes', author: { name: 'Ada' }, editor: { name: 'Bob' }, reviews: [{ stars: 5 }, { stars: 4 }] },
      { title: 'Engines', author: { name: 'Ada' }, editor: { name: 'Cleo' }, reviews: [] },
    ]);
  });

  it('embeds by foreign-key column, keyed by the column (or alias)', async () => {
    const res = await get('books?select=title,author_id(name),ed:editor_id(name)&id=eq.1');
    expect(res.json()).toEqual([{ title: 'Notes', author_id: { name: 'Ada' }, ed: { name: 'Bob' } }]);
  });

  it('answers 300 PGRST201 for an ambiguous embed and 400 PGRST200 without a relationship', async () => {
    const ambiguous = await get('books?select=title,authors(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.json()).toMatchObject({ code: 'PGRST201' });
    const none = await get('authors?select=name,reviews(stars)');
    expect(none.status).toBe(400);
    expect(none.json()).toMatchObject({ code: 'PGRST200', message: "Could not find a relationship between 'authors' and 'reviews' in the schema cache" });
    const unregistered = await get('books?select=title,unregistered_secrets(token)');
    expect(unregistered.json()).toMatchObject({ code: 'PGRST200' });
    const badHint = await get('books?select=title,authors!nope(name)');
    expect(badHint.json()).toMatchObject({ code: 'PGRST200' });
  });

  it('nests embeds and filters, orders and limits embedded rows', async () => {
    const res = await get('authors?select=name,books!books_author_id_fkey(title,reviews(stars))&books.order=title.desc&books.reviews.stars=gt.4&id=eq.1');
    expect(res.json()).toEqual([{ name: 'Ada', books: [{ title: 'Notes', reviews: [{ stars: 5 }] }, { title: 'Engines', reviews: [] }] }]);
    const limited = await get('authors?select=name,books!books_author_id_fkey(title)&books.limit=1&books.order=id&id=eq.1');
    expect(limited.json()).toEqual([{ name: 'Ada', books: [{ title: 'Notes' }] }]);
    const orFilter = await get('books?select=title,reviews(stars)&reviews.or=(stars.eq.5,stars.eq.2)&reviews.order=stars&id=eq.1');
    expect(orFilter.json()).toEqual([{ title: 'Notes', reviews: [{ stars: 5 }] }]);
  });

  it('filters parents with !inner and with embed=not.is.null', async () => {
    expect(await pluck('books?select=title,reviews!inner(stars)&reviews.stars=lt.3', 'title')).toEqual(['Stories']);
    expect(await pluck('books?select=title,author:authors!books_author_id_fkey!inner(name)&author.name=eq.Bob', 'title')).toEqual(['Stories']);
    expect(await pluck('books?select=title,reviews(stars)&reviews=not.is.null&order=id', 'title')).toEqual(['Notes', 'Stories']);
    expect(await pluck('books?select=title,reviews(stars)&reviews=is.null&order=id', 'title')).toEqual(['Engines', 'Lost']);
    const count = await get('books?select=title,reviews!inner()', { prefer: 'count=exact' });
    expect(count.json()).toEqual([{ title: 'Notes' }, { title: 'Stories' }]);
    expect(count.headers['content-range']).toBe('0-1/2');
  });

  it('applies row rules to embedded relations (soft-deleted author is null)', async () => {
    expect((await get('books?select=title,author:authors!books_author_id_fkey(name)&title=eq.Lost')).json()).toEqual([{ title: 'Lost', author: null }]);
  });

  it('orders by a to-one embed and refuses a to-many one', async () => {
    expect(await pluck('books?select=title,author:authors!books_author_id_fkey(name)&order=author(name).desc.nullslast,id', 'title')).toEqual(['Stories', 'Notes', 'Engines', 'Lost']);
    const many = await get('books?select=title,reviews(stars)&order=reviews(stars)');
    expect(many.json()).toMatchObject({ code: 'PGRST118' });
  });

  it('answers PGRST108 for modifiers on something not embedded', async () => {
    const res = await get('books?select=title&reviews.stars=eq.5');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PGRST108' });
  });
});

describe('media types and other errors', () => {
  it('returns one object for application/vnd.pgrst.object+json and 406 PGRST116 otherwise', async () => {
    const one = await get('authors?id=eq.1&select=name', { accept: 'application/vnd.pgrst.object+json' });
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toContain('application/vnd.pgrst.object+json');
    expect(one.json()).toEqual({ name: 'Ada' });
    const none = await get('authors?id=eq.99', { accept: 'application/vnd.pgrst.object+json' });
    expect(none.status).toBe(406);
    expect(none.json()).toEqual({ code: 'PGRST116', message: 'Cannot coerce the result to a single JSON object', details: 'The result contains 0 rows', hint: null });
    expect(none.headers['proxy-status']).toBe('PostgREST; error=PGRST116');
    const many = await get('authors', { accept: 'application/vnd.pgrst.object+json' });
    expect(many.json()).toMatchObject({ code: 'PGRST116', details: 'The result contains 3 rows' });
  });

  it('strips nulls on request and refuses unknown media types', async () => {
    const stripped = await get('authors?id=eq.2&select=name,email', { accept: 'application/vnd.pgrst.array+json;nulls=stripped' });
    expect(stripped.json()).toEqual([{ name: 'Bob' }]);
    const browser = await get('authors?id=eq.2&select=name', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(browser.status).toBe(200);
    const csv = await get('authors', { accept: 'text/csv' });
    expect(csv.status).toBe(406);
    expect(csv.json()).toMatchObject({ code: 'PGRST107' });
  });

  it('answers 404 PGRST205 for relations outside the registry, existing or not', async () => {
    for (const name of ['unregistered_secrets', 'nothing', 'pg_user', 'call_log']) {
      const res = await get(name);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ code: 'PGRST205', message: `Could not find the table 'public.${name}' in the schema cache`, details: null, hint: null });
    }
    expect((await get('authors/1')).json()).toMatchObject({ code: 'PGRST125' });
    const root = await f.app.inject({ method: 'GET', url: '/api/db' });
    expect(root.statusCode).toBe(404);
    expect(root.json()).toMatchObject({ code: 'PGRST126' });
  });

  it('answers HEAD with headers only', async () => {
    const res = await f.app.inject({ method: 'HEAD', url: '/api/db/authors', headers: { prefer: 'count=exact' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBe('0-2/3');
    expect(res.body).toBe('');
  });
});
