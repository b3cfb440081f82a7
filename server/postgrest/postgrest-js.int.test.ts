import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './testing/fixture';

/** The client the web app uses, unmodified, against a real listening server. */
let f: Fixture;
let db: PostgrestClient;

beforeAll(async () => {
  f = await createFixture();
  const address = await f.app.listen({ host: '127.0.0.1', port: 0 });
  db = new PostgrestClient(`${address}/api/db`);
});

afterAll(async () => {
  await f?.close();
});

describe('@supabase/postgrest-js', () => {
  it('selects with embeds, filters, or, order, range and count=exact', async () => {
    const { data, error, count, status } = await db
      .from('books')
      .select('title, pages, author:authors!books_author_id_fkey(name), reviews(stars)', { count: 'exact' })
      .or('pages.gt.100,title.eq.Stories')
      .order('pages', { ascending: false, nullsFirst: false })
      .range(0, 1);
    expect(error).toBeNull();
    expect(status).toBe(206);
    expect(count).toBe(3);
    expect(data).toEqual([
      { title: 'Engines', pages: 300, author: { name: 'Ada' }, reviews: [] },
      { title: 'Notes', pages: 120, author: { name: 'Ada' }, reviews: [{ stars: 5 }, { stars: 4 }] },
    ]);
  });

  it('filters with the builder methods', async () => {
    const names = async (query: PromiseLike<{ data: unknown; error: unknown }>) => {
      const { data, error } = await query;
      expect(error).toBeNull();
      return Array.isArray(data) ? data.map((row: { name?: unknown }) => row.name) : data;
    };
    const authors = () => db.from('authors').select('name').order('id');
    expect(await names(authors().in('name', ['Ada', 'Cleo']))).toEqual(['Ada', 'Cleo']);
    expect(await names(authors().ilike('name', '%o%'))).toEqual(['Bob', 'Cleo']);
    expect(await names(authors().is('email', null))).toEqual(['Bob']);
    expect(await names(authors().not('email', 'is', null))).toEqual(['Ada', 'Cleo']);
    expect(await names(authors().contains('tags', ['math']))).toEqual(['Ada']);
    expect(await names(authors().overlaps('tags', ['fiction', 'poetry']))).toEqual(['Ada', 'Bob']);
    expect(await names(authors().gte('rating', 3.25).lt('rating', 5))).toEqual(['Ada', 'Cleo']);
    expect(await names(authors().eq('data->>city', 'Paris'))).toEqual(['Bob']);
    expect(await names(authors().neq('name', 'Ada').limit(1))).toEqual(['Bob']);
    expect(await names(db.from('books').select('name:title').textSearch('tsv', 'steam & engines', { config: 'english' }))).toEqual(['Engines']);
    expect(await names(db.from('books').select('name:title').textSearch('summary', 'fast city', { type: 'phrase' }))).toEqual(['Stories']);
    expect(await names(db.from('books').select('name:title, reviews!inner(stars)').eq('reviews.stars', 2))).toEqual(['Stories']);
  });

  it('single() and maybeSingle()', async () => {
    const one = await db.from('authors').select('name').eq('id', 1).single();
    expect(one.error).toBeNull();
    expect(one.data).toEqual({ name: 'Ada' });
    const none = await db.from('authors').select('name').eq('id', 99).single();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({ code: 'PGRST116' });
    const maybe = await db.from('authors').select('name').eq('id', 99).maybeSingle();
    expect(maybe.error).toBeNull();
    expect(maybe.data).toBeNull();
    const maybeOne = await db.from('authors').select('name').eq('id', 2).maybeSingle();
    expect(maybeOne.data).toEqual({ name: 'Bob' });
  });

  it('insert, update, upsert and delete', async () => {
    const inserted = await db.from('books').insert({ title: 'Client', pages: 5 }).select('title, pages').single();
    expect(inserted.error).toBeNull();
    expect(inserted.status).toBe(201);
    expect(inserted.data).toEqual({ title: 'Client', pages: 5 });
    const bulk = await db.from('books').insert([{ title: 'Bulk 1' }, { title: 'Bulk 2' }], { count: 'exact' });
    expect(bulk.error).toBeNull();
    expect(bulk.count).toBe(2);
    const updated = await db.from('books').update({ pages: 6 }).eq('title', 'Client').select('pages');
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual([{ pages: 6 }]);
    const upserted = await db.from('books').upsert([{ title: 'Client', pages: 7 }], { onConflict: 'title' }).select('title, pages');
    expect(upserted.error).toBeNull();
    expect(upserted.data).toEqual([{ title: 'Client', pages: 7 }]);
    const ignored = await db.from('books').upsert([{ title: 'Client', pages: 8 }], { onConflict: 'title', ignoreDuplicates: true }).select('title');
    expect(ignored.data).toEqual([]);
    const removed = await db.from('books').delete().like('title', 'Bulk*').select('title').order('title');
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual([{ title: 'Bulk 1' }, { title: 'Bulk 2' }]);
    const unfiltered = await db.from('books').delete();
    expect(unfiltered.error).toMatchObject({ code: '21000' });
  });

  it('reports errors as PostgREST errors', async () => {
    const missing = await db.from('nothing').select();
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'PGRST205' });
    const duplicate = await db.from('books').insert({ title: 'Notes' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: '23505', details: 'Key (title)=(Notes) already exists.' });
  });

  it('rpc by POST and GET, with filters on a set-returning function', async () => {
    const sum = await db.rpc('add_them', { a: 4, b: 5 });
    expect(sum.error).toBeNull();
    expect(sum.data).toBe(9);
    const viaGet = await db.rpc('add_them', { a: 4 }, { get: true });
    expect(viaGet.data).toBe(5);
    const books = await db.rpc('books_by', { author: 1 }, { count: 'exact' }).select('title').gt('pages', 200);
    expect(books.error).toBeNull();
    expect(books.data).toEqual([{ title: 'Engines' }]);
    expect(books.count).toBe(1);
    const unknown = await db.rpc('nope', {});
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'PGRST202' });
  });
});
