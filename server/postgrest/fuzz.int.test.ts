import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './testing/fixture';

/**
 * Thousands of random and hostile requests: never a 5xx, never SQL text or a stack in the answer,
 * never a value from a hidden column (authors.secret = 'hunter2') or an unregistered table
 * ('top-secret-token').
 */
let f: Fixture;

beforeAll(async () => {
  f = await createFixture();
});

afterAll(async () => {
  await f?.close();
});

const SECRETS = ['hunter2', 'top-secret-token'];
/** Fragments only our SQL (or a stack) could put in a body. */
const INTERNALS = ['json_agg', 'row_to_json', 'jsonb_to_recordset', 'WITH _page', 'FROM "', '_page', 'syntax error at or near', '    at ', 'node_modules', 'RETURNING'];

const hostile = fc.constantFrom(
  "'; DROP TABLE authors; --",
  '/* comment */',
  '-- x',
  '" OR 1=1 --',
  "') UNION SELECT token FROM unregistered_secrets --",
  '$1',
  '\\',
  '"',
  '((((',
  '))))',
  '(a,(b,(c)))',
  '99999999999999999999999999',
  '-1',
  '1e400',
  'NaN',
  '{a,b',
  '{"a":',
  '[1,2)',
  '🙂',
  'é',
  '\u0000',
  '\u202e',
  '',
  '*',
  'null',
  ';',
  'select',
  'SELECT 1',
);

const columns = fc.constantFrom('id', 'name', 'email', 'secret', 'token', 'tags', 'data', 'born', 'rating', 'title', 'pages', 'span', 'tsv', 'summary', 'deleted_at', 'stars', 'nope', 'data->>city', 'data->stats->papers', 'data->0', 'name->x');
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }), hostile);
const operators = fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'in', 'is', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'fts', 'plfts', 'phfts', 'wfts', 'isdistinct', 'eq(any)', 'like(all)', 'fts(english)', 'fts(nope)', 'bogus', '');
const value = fc.oneof(
  fc.tuple(fc.boolean(), operators, text).map(([not, op, v]) => `${not ? 'not.' : ''}${op}.${v}`),
  fc.tuple(operators, fc.array(text, { maxLength: 4 })).map(([op, list]) => `${op}.(${list.join(',')})`),
  fc.tuple(operators, fc.array(text, { maxLength: 3 })).map(([op, list]) => `${op}.{${list.join(',')}}`),
  text,
);

const logic: fc.Arbitrary<string> = fc.letrec((tie) => ({
  tree: fc.tuple(fc.constantFrom('or', 'and', 'not.or', 'not.and'), fc.array(tie('item'), { minLength: 1, maxLength: 3 })).map(([op, items]) => `${op}(${items.join(',')})`),
  item: fc.oneof({ depthSize: 'small' }, fc.tuple(columns, value).map(([c, v]) => `${c}.${v}`), tie('tree'), text),
})).tree.map((tree) => tree.replace(/^(not\.)?(or|and)/, ''));

const selectItem: fc.Arbitrary<string> = fc.letrec((tie) => ({
  item: fc.oneof(
    { depthSize: 'small' },
    columns,
    fc.constant('*'),
    fc.tuple(text, columns).map(([alias, c]) => `${alias}:${c}`),
    fc.tuple(fc.string({ unit: 'binary', maxLength: 6 }), columns).map(([alias, c]) => `${alias}:${c}`),
    fc.tuple(columns, fc.constantFrom('text', 'int', 'jsonb', 'evil', 'pg_catalog.text')).map(([c, t]) => `${c}::${t}`),
    fc
      .tuple(fc.constantFrom('authors', 'books', 'reviews', 'unregistered_secrets', 'call_log', 'nope'), fc.constantFrom('', '!inner', '!books_author_id_fkey', '!editor_id', '!nope!inner'), fc.array(tie('item'), { maxLength: 3 }))
      .map(([rel, hint, items]) => `${rel}${hint}(${items.join(',')})`),
    text,
  ),
})).item;

const param = fc.oneof(
  fc.tuple(columns, value).map(([k, v]) => [k, v] as const),
  fc.array(selectItem, { minLength: 1, maxLength: 4 }).map((items) => ['select', items.join(',')] as const),
  fc.tuple(fc.constantFrom('', 'books.', 'reviews.', 'author.', 'nope.'), fc.constantFrom('or', 'and', 'not.or'), logic).map(([p, k, v]) => [`${p}${k}`, v] as const),
  fc.tuple(fc.constantFrom('order', 'books.order', 'reviews.order'), fc.array(fc.tuple(columns, fc.constantFrom('', '.asc', '.desc', '.desc.nullslast', '.nullsfirst', '.sideways')), { maxLength: 3 })).map(([k, terms]) => [k, terms.map(([c, d]) => `${c}${d}`).join(',')] as const),
  fc.tuple(fc.constantFrom('limit', 'offset', 'books.limit', 'on_conflict', 'columns'), fc.oneof(fc.nat().map(String), text)).map(([k, v]) => [k, v] as const),
  fc.tuple(text, text).map(([k, v]) => [k, v] as const),
);

const relation = fc.constantFrom('authors', 'books', 'reviews', 'rpc/books_by', 'rpc/add_them', 'rpc/numbers', 'rpc/log_call', 'unregistered_secrets', 'call_log', 'pg_user', 'rpc/nope', 'authors;--', '%22authors%22', 'authors/1', 'rpc/');

const headers = fc.record(
  {
    prefer: fc.oneof(fc.constantFrom('count=exact', 'return=representation', 'return=minimal,count=planned', 'return=headers-only', 'resolution=merge-duplicates', 'handling=strict,bogus=1', 'missing=default'), text),
    range: fc.oneof(fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `${a}-${b}`), fc.constantFrom('0-', '-5', '99999999999999999999-1', 'items=0-1'), text),
    'range-unit': fc.constantFrom('items', 'bytes'),
    accept: fc.oneof(fc.constantFrom('application/json', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.array+json;nulls=stripped', 'text/csv', '*/*'), text),
  },
  { requiredKeys: [] },
);

function encode(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** Header values must be valid for HTTP; drop the ones inject would refuse. */
function safeHeaders(input: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => /^[\x20-\x7e]*$/.test(v)));
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `echo` is everything the client sent: an error may quote it (a bad value, a bad media type), never our SQL. */
function check(url: string, res: { statusCode: number; body: string }, echo = ''): void {
  expect(res.statusCode, `${url} → ${res.body}`).toBeLessThan(500);
  for (const secret of SECRETS) expect(res.body, url).not.toContain(secret);
  for (const fragment of INTERNALS) expect(res.body, url).not.toContain(fragment);
  const sent = `${url}${decoded(url)}${echo}`;
  if (!sent.includes('SELECT')) expect(res.body, url).not.toContain('SELECT');
}

describe('hostile query strings', () => {
  it('reads: never a 5xx, SQL text or hidden data', async () => {
    await fc.assert(
      fc.asyncProperty(relation, fc.array(param, { maxLength: 6 }), headers, async (rel, params, hdrs) => {
        const url = `/api/db/${rel}?${encode(params)}`;
        const res = await f.app.inject({ method: 'GET', url, headers: safeHeaders(hdrs) });
        check(url, res, JSON.stringify(hdrs));
      }),
      { numRuns: 4000 },
    );
  }, 120_000);

  it('raw query strings (unencoded junk): never a 5xx', async () => {
    const raw = fc.array(fc.oneof(fc.constantFrom('&', '=', '%', '%2', '%ZZ', '%00', '(', ')', ',', '.', '"', "'", ';', '--', '->', '->>', '::', '!', ':', '*', 'select', 'or', 'not', 'eq', 'id', 'name', '+'), fc.string({ maxLength: 4 })), { maxLength: 25 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(relation, raw, async (rel, query) => {
        const url = `/api/db/${rel}?${query.replace(/[^\x21-\x7e]/g, (ch) => encodeURIComponent(ch)).replace(/#/g, '%23')}`;
        const res = await f.app.inject({ method: 'GET', url });
        check(url, res);
      }),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('writes: never a 5xx, and nothing outside the registry changes', async () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    const body = fc.oneof(
      fc.dictionary(fc.oneof(columns, text), fc.oneof(json, text), { maxKeys: 4 }),
      fc.array(fc.dictionary(columns, fc.oneof(json, text), { maxKeys: 3 }), { maxLength: 3 }),
      json,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'PATCH', 'DELETE') , relation, fc.array(param, { maxLength: 3 }), headers, body, async (method, rel, params, hdrs, payload) => {
        const url = `/api/db/${rel}?${encode(params)}`;
        const res = await f.app.inject({ method, url, headers: { ...safeHeaders(hdrs), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
        check(url, res, JSON.stringify(hdrs) + JSON.stringify(payload));
      }),
      { numRuns: 1500 },
    );
    const { rows } = await f.db.pool.query<{ token: string }>('SELECT token FROM unregistered_secrets');
    expect(rows).toEqual([{ token: 'top-secret-token' }]);
    const { rows: secrets } = await f.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM authors WHERE secret <> 'hunter2'");
    expect(secrets).toEqual([{ n: 0 }]);
  }, 120_000);
});
