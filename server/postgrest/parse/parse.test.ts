import { describe, expect, it } from 'vitest';
import { PgrstError } from '../errors';
import { combineWindow, contentRange, negotiate, parsePrefer, parseRangeHeader, rangeStatus } from '../headers';
import { parseFilter, parseLogic } from './filter';
import { parseField, splitTopLevel } from './lexer';
import { parseOrder, parseQuery, splitQueryString } from './query';
import { parseSelect } from './select';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof PgrstError ? error.code : 'not-a-pgrst-error';
  }
  return undefined;
}

describe('select parser', () => {
  it('parses columns, aliases, casts and JSON paths', () => {
    expect(parseSelect('id,n:name,data->a->>b,c:data->>x::int,*')).toEqual([
      { kind: 'column', field: { name: 'id', path: [] } },
      { kind: 'column', field: { name: 'name', path: [] }, alias: 'n' },
      { kind: 'column', field: { name: 'data', path: [{ arrow: '->', key: 'a' }, { arrow: '->>', key: 'b' }] } },
      { kind: 'column', field: { name: 'data', path: [{ arrow: '->>', key: 'x' }] }, alias: 'c', cast: 'integer' },
      { kind: 'star' },
    ]);
  });

  it('parses embeds with alias, hint, inner and nesting', () => {
    expect(parseSelect('title,author:authors!books_author_id_fkey!inner(name,books(id)),reviews()')).toEqual([
      { kind: 'column', field: { name: 'title', path: [] } },
      {
        kind: 'embed',
        relation: 'authors',
        alias: 'author',
        hint: 'books_author_id_fkey',
        inner: true,
        select: [
          { kind: 'column', field: { name: 'name', path: [] } },
          { kind: 'embed', relation: 'books', inner: false, select: [{ kind: 'column', field: { name: 'id', path: [] } }] },
        ],
      },
      { kind: 'embed', relation: 'reviews', inner: false, select: [] },
    ]);
  });

  it('tolerates spaces and an empty select', () => {
    expect(parseSelect(' id , name ')).toHaveLength(2);
    expect(parseSelect('')).toEqual([]);
  });

  it('rejects malformed selects with PGRST100 and aggregates with PGRST123', () => {
    for (const bad of ['id,', '(', 'a(', 'a)', 'x::evil', ':a', 'a:', '...b(c)', 'a!', 'data->', 'a!b!c(d)']) {
      expect(code(() => parseSelect(bad)), bad).toBe('PGRST100');
    }
    expect(code(() => parseSelect('count()'))).toBe('PGRST123');
    expect(code(() => parseSelect('a('.repeat(20) + ')'.repeat(20)))).toBe('PGRST100');
  });
});

describe('filter parser', () => {
  it('parses operators, not., modifiers and lists', () => {
    expect(parseFilter('id', 'eq.5')).toEqual({ kind: 'condition', field: { name: 'id', path: [] }, negate: false, predicate: { op: 'eq', value: '5' } });
    expect(parseFilter('name', 'not.like.a.b*').predicate).toEqual({ op: 'like', value: 'a.b*' });
    expect(parseFilter('name', 'not.like.x').negate).toBe(true);
    expect(parseFilter('id', 'in.(1,"a,b",  c )').predicate).toEqual({ op: 'in', values: ['1', 'a,b', 'c'] });
    expect(parseFilter('id', 'in.()').predicate).toEqual({ op: 'in', values: [] });
    expect(parseFilter('x', 'is.NULL').predicate).toEqual({ op: 'is', value: 'null' });
    expect(parseFilter('tsv', 'fts(english).a & b').predicate).toEqual({ op: 'fts', value: 'a & b', language: 'english' });
    expect(parseFilter('id', 'eq(any).{1,2}').predicate).toEqual({ op: 'eq', value: '{1,2}', quantifier: 'any' });
    expect(parseFilter('data->>a', 'eq.').field).toEqual({ name: 'data', path: [{ arrow: '->>', key: 'a' }] });
  });

  it('rejects unknown operators, bad lists and bad modifiers', () => {
    for (const [key, value] of [['id', 'eq'], ['id', 'foo.1'], ['id', 'in.1,2'], ['id', 'in.(1'], ['id', 'is.maybe'], ['id', 'cs(any).x'], ['t', 'fts(bad lang).x'], ['', 'eq.1'], ['a(b', 'eq.1']]) {
      expect(code(() => parseFilter(key ?? '', value ?? '')), `${key}=${value}`).toBe('PGRST100');
    }
  });

  it('parses nested, negated logic trees with quoted values', () => {
    const tree = parseLogic('or', false, '(a.eq.1,and(b.gt.2,c.is.null),not.or(d.eq."x,y",e.in.(1,2)))');
    expect(tree.op).toBe('or');
    expect(tree.children).toHaveLength(3);
    const [, and, notOr] = tree.children;
    expect(and).toMatchObject({ kind: 'logic', op: 'and', negate: false });
    expect(notOr).toMatchObject({ kind: 'logic', op: 'or', negate: true, children: [{ predicate: { op: 'eq', value: 'x,y' } }, { predicate: { op: 'in', values: ['1', '2'] } }] });
  });

  it('rejects unbalanced or empty logic trees and deep nesting', () => {
    for (const bad of ['(a.eq.1', 'a.eq.1', '()', '(a)', '(and(a.eq.1)']) expect(code(() => parseLogic('or', false, bad)), bad).toBe('PGRST100');
    const deep = `(${'and('.repeat(12)}a.eq.1${')'.repeat(12)})`;
    expect(code(() => parseLogic('or', false, deep))).toBe('PGRST100');
  });
});

describe('query assembly', () => {
  it('keeps repeated keys and decodes + and %', () => {
    expect(splitQueryString('id=gt.1&id=lt.5&name=eq.a+b%2Cc&&flag')).toEqual([
      { key: 'id', value: 'gt.1' },
      { key: 'id', value: 'lt.5' },
      { key: 'name', value: 'eq.a b,c' },
      { key: 'flag', value: '' },
    ]);
    expect(code(() => splitQueryString('a=%E0%A4%A'))).toBe('PGRST100');
  });

  it('routes filters, order, limit and logic to embed paths', () => {
    const query = parseQuery(splitQueryString('select=a,b(c)&b.c=eq.1&b.order=c.desc&b.limit=2&b.or=(c.eq.1,c.eq.2)&b.not.and=(c.gt.0)&not.or=(a.eq.1)&data->>x.y=eq.1&on_conflict=a,b&columns=a'));
    const b = query.nodes.get('b');
    expect(b?.filters).toHaveLength(3);
    expect(b?.order).toEqual([{ field: { name: 'c', path: [] }, direction: 'desc' }]);
    expect(b?.limit).toBe(2);
    const top = query.nodes.get('');
    expect(top?.filters[0]).toMatchObject({ kind: 'logic', op: 'or', negate: true });
    expect(top?.filters[1]).toMatchObject({ kind: 'condition', field: { name: 'data', path: [{ arrow: '->>', key: 'x.y' }] } });
    expect(query.onConflict).toEqual(['a', 'b']);
    expect(query.columns).toEqual(['a']);
  });

  it('parses order terms with nulls and related orders', () => {
    expect(parseOrder('a.desc.nullslast,b,c.nullsfirst,author(name).asc,data->>k.desc')).toEqual([
      { field: { name: 'a', path: [] }, direction: 'desc', nulls: 'last' },
      { field: { name: 'b', path: [] }, direction: 'asc' },
      { field: { name: 'c', path: [] }, direction: 'asc', nulls: 'first' },
      { field: { name: 'name', path: [] }, direction: 'asc', embed: 'author' },
      { field: { name: 'data', path: [{ arrow: '->>', key: 'k' }] }, direction: 'desc' },
    ]);
    expect(code(() => parseOrder('a.desc,'))).toBe('PGRST100');
    expect(code(() => parseQuery(splitQueryString('limit=-1')))).toBe('PGRST100');
    expect(code(() => parseQuery(splitQueryString('offset=1e3')))).toBe('PGRST100');
  });

  it('splits only at top-level commas', () => {
    expect(splitTopLevel('a,(b,c),"d,e",{f,g}')).toEqual(['a', '(b,c)', '"d,e"', '{f,g}']);
    expect(splitTopLevel('a,(b')).toBeUndefined();
    expect(parseField('a->')).toBeUndefined();
  });
});

describe('headers', () => {
  it('parses Prefer', () => {
    expect(parsePrefer('return=representation, count=exact')).toMatchObject({ return: 'representation', count: true, applied: ['return=representation', 'count=exact'] });
    expect(parsePrefer(['resolution=merge-duplicates', 'missing=default'])).toMatchObject({ resolution: 'merge-duplicates', missingDefault: true });
    expect(parsePrefer('bogus, return=maybe')).toMatchObject({ return: undefined, applied: [] });
    expect(code(() => parsePrefer('handling=strict, bogus'))).toBe('PGRST122');
  });

  it('negotiates media types', () => {
    expect(negotiate(undefined)).toEqual({ singular: false, stripNulls: false });
    expect(negotiate('application/vnd.pgrst.object+json;nulls=stripped')).toEqual({ singular: true, stripNulls: true });
    expect(negotiate('text/html, */*;q=0.8')).toEqual({ singular: false, stripNulls: false });
    expect(code(() => negotiate('text/csv'))).toBe('PGRST107');
  });

  it('parses Range and combines it with limit/offset', () => {
    expect(parseRangeHeader('0-9', 'items')).toEqual({ offset: 0, limit: 10 });
    expect(parseRangeHeader('5-', undefined)).toEqual({ offset: 5, limit: undefined });
    expect(parseRangeHeader('junk', undefined)).toBeUndefined();
    expect(parseRangeHeader('0-9', 'bytes')).toBeUndefined();
    expect(code(() => parseRangeHeader('9-0', undefined))).toBe('PGRST103');
    expect(combineWindow({ offset: 0, limit: 10 }, 5, 20)).toEqual({ offset: 5, limit: 5 });
    expect(combineWindow(undefined, undefined, 3)).toEqual({ offset: 0, limit: 3 });
  });

  it('formats Content-Range and picks 200/206/416 like PostgREST', () => {
    expect(contentRange(0, 50, 1234)).toBe('0-49/1234');
    expect(contentRange(0, 0, 0)).toBe('*/0');
    expect(contentRange(0, 50, undefined)).toBe('0-49/*');
    expect(contentRange(0, 0, undefined)).toBe('*/*');
    expect(rangeStatus(0, 50, 1234)).toBe(206);
    expect(rangeStatus(0, 3, 3)).toBe(200);
    expect(rangeStatus(0, 0, 0)).toBe(200);
    expect(rangeStatus(10, 0, 3)).toBe(416);
    expect(rangeStatus(0, 50, undefined)).toBe(200);
  });
});
