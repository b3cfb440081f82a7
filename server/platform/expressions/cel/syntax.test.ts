import { describe, expect, it } from 'vitest';
import { evaluateCel, ExpressionError } from '../index';
import { prepareSource } from './syntax';

const where = 'test.expr';
const run = (expression: string, variables: Record<string, unknown> = {}) => evaluateCel(where, expression, variables);
function failure(expression: string, variables: Record<string, unknown> = {}): ExpressionError {
  try {
    run(expression, variables);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${expression} did not fail`);
}

describe('CEL syntax cel-js does not read (cel/syntax.ts)', () => {
  it('rewrites without changing the length or any line', () => {
    for (const text of ["[?a, b]", "{?'k': v}", "br'\\\\d'", '.5 + x', "m.`content-type`", 'cel.block([1], cel.index(0))', "b'''ÿ\n'''"]) {
      const prepared = prepareSource(text);
      expect(prepared.text.length, text).toBe(text.length);
      expect(prepared.text.split('\n').length, text).toBe(text.split('\n').length);
      expect(prepared.marks, text).toBeDefined();
    }
    expect(prepareSource("a.b + 'x?' + c[0]").marks).toBeUndefined();
    expect(prepareSource('x ? 1 : 2').marks).toBeUndefined();
    expect(prepareSource('m[?0]').marks).toBeUndefined();
  });

  it('optional list and map entries: [?x] and {?k: v} keep only values that are present', () => {
    expect(run("[?{}.?c, ?optional.of(42), 1, ?optional.none()]")).toEqual([42, 1]);
    expect(run("{?'a': optional.of(1), ?'b': optional.none(), 'c': 3}")).toEqual({ a: 1, c: 3 });
    expect(run("{?'port': labels.?port}", { labels: { port: '80' } })).toEqual({ port: '80' });
    expect(run("{?'port': labels.?port}", { labels: {} })).toEqual({});
    expect(failure('[?1]').reason).toMatch(/optional list entry \(\?x\) must be optional/);
  });

  it('back-quoted field names, raw and UTF-8 bytes literals, a double with no leading digit', () => {
    expect(run('headers.`content-type`', { headers: { 'content-type': 'text/plain' } })).toBe('text/plain');
    expect(run('has(headers.`x-request-id`)', { headers: {} })).toBe(false);
    expect(run("br'\\d' == b'\\\\d'")).toBe(true);
    expect(run("b'ÿ' == b'\\303\\277'")).toBe(true);
    expect(run('.5 + 1.0')).toBe(1.5);
  });

  it('keeps the user\'s line and column in errors after a rewrite', () => {
    const error = failure("[?optional.of(1),\n  nope(1)]");
    expect(error.position).toEqual({ line: 2, column: 3 });
    expect(error.reason).toBe('unknown function nope()');
  });
});

describe('CEL semantics fixed over cel-js (cel/rewrite.ts)', () => {
  it('has() on any map expression and through optionals', () => {
    expect(run("has({'a': 1}.a)")).toBe(true);
    expect(run('has({}.a)')).toBe(false);
    expect(run("has({'x': {'y': 'z'}}.?x.y)")).toBe(true);
    expect(run('has({}.?x.y)')).toBe(false);
    expect(run('has(pod.metadata.labels)', { pod: { metadata: {} } })).toBe(false);
    expect(failure('has(pod.metadata.labels)', { pod: {} }).reason).toMatch(/No such key: metadata/);
    expect(failure('has(1)').reason).toMatch(/has\(\) invalid argument/);
  });

  it('a field of an optional value that is not a map is an error, not none', () => {
    expect(failure("{'k': dyn(null)}.?k.field.hasValue()").reason).toMatch(/does not support field selection/);
    expect(run("{}.?k.field.hasValue()")).toBe(false);
  });

  it('type(optional) is optional_type; empty literals and optional.none() type-check as dyn', () => {
    expect(run('type(optional.none()) == optional_type')).toBe(true);
    expect(run('[].all(e, e > 0)')).toBe(true);
    expect(run('optional.none()[?0].hasValue()')).toBe(false);
  });

  it('map literal keys: no double or null keys, no key twice', () => {
    expect(failure('{1.5: 1}').reason).toBe('a map key must be an int, uint, bool or string, not a double');
    expect(failure("{'a': 1,\n 'a': 2}").reason).toBe('the map key "a" is repeated');
    expect(failure("{'a': 1,\n 'a': 2}").position).toEqual({ line: 2, column: 2 });
  });

  it('64-bit integer overflow fails', () => {
    expect(failure('-(-9223372036854775808)').reason).toMatch(/integer overflow/);
    expect(failure('(-9223372036854775808) / -1').reason).toMatch(/integer overflow/);
    expect(failure('int(9223372036854775807.0)').reason).toMatch(/outside the int64 range/);
    expect(failure('int(18446744073709551615u)').reason).toMatch(/outside the int64 range/);
    expect(run('int(42u) + int(-1.5)')).toBe(41);
  });
});

describe('two-variable comprehensions and cel.block (cel/comprehensions.ts)', () => {
  it('all, exists and existsOne with (index, element) and (key, value)', () => {
    expect(run('[1, 2, 3].all(i, v, i < v)')).toBe(true);
    expect(run("{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)")).toBe(true);
    expect(run('[5, 7, 8].existsOne(i, v, v % 5 == i)')).toBe(true);
    expect(run('[0, 1, 2, 3].existsOne(i, v, v % 2 == i)')).toBe(false);
    // an error is the answer only when no element decides: v == -1 gives false, which decides all()
    expect(run('[1, 0, -1].all(i, v, 6 / v > 0)')).toBe(false);
    expect(failure('[1, 2].all(i, v, 6 / (2 - v) > 0)').reason).toMatch(/division by zero/i);
    expect(failure('[1].all(x, x, true)').reason).toMatch(/different names/);
  });

  it('transformList and transformMap, with and without a filter', () => {
    expect(run('[2, 4, 6].transformList(i, v, v / 2 + i)')).toEqual([1, 3, 5]);
    expect(run('[2, 4, 6].transformList(i, v, i != 1, v * 10)')).toEqual([20, 60]);
    expect(run("{'a': 'x', 'b': 'y'}.transformMap(k, v, k + v)")).toEqual({ a: 'ax', b: 'by' });
    expect(run("{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v * 2)")).toEqual({ b: 4 });
  });

  it('cel.block evaluates each slot once, in order', () => {
    expect(run('cel.block([x * 2, cel.index(0) + 1], cel.index(1) * cel.index(0))', { x: 3 })).toBe(42);
    expect(run('cel.block([[1, 2, 3]], cel.index(0).map(cel.iterVar(0, 0), cel.iterVar(0, 0) * 2))')).toEqual([2, 4, 6]);
    expect(failure('cel.block(x, 1)', { x: [] }).reason).toMatch(/slots must be a list literal/);
  });
});

describe('standard overloads cel-js lacks (cel/standard.ts)', () => {
  it('orders bytes, converts uint and timestamps to int, and takes a duration or timestamp as is', () => {
    expect(run("b'a' < b'b' && b'ab' > b'a' && b'' <= b'\\x00' && b'b' >= b'b'")).toBe(true);
    expect(run("int(timestamp('2009-02-13T23:31:30Z'))")).toBe(1234567890);
    expect(run("duration(duration('100s')) == duration('100s') && timestamp(timestamp(10)) == timestamp(10)")).toBe(true);
  });
});
