import { describe, expect, it } from 'vitest';
import { formatLabelFilter, labelFilterPredicate, labelOptions, labelState, multiSelectSummary, parseLabelFilter, withLabelState, type LabelFilterEntry } from './labels';

describe('label filter URL encoding (spec §5)', () => {
  it('writes key=value:state entries, 1 include and -1 exclude', () => {
    expect(formatLabelFilter([{ key: 'env', value: 'prod', state: 1 }, { key: 'team', value: 'web', state: -1 }])).toBe('env=prod:1,team=web:-1');
    expect(formatLabelFilter([])).toBeUndefined();
  });

  it('round-trips separators and escapes inside keys and values', () => {
    const entries: LabelFilterEntry[] = [
      { key: 'app.kubernetes.io/name', value: 'a,b:c=d%e', state: 1 },
      { key: 'k:=', value: '', state: -1 },
    ];
    const text = formatLabelFilter(entries);
    expect(text).toBe('app.kubernetes.io/name=a%2Cb%3Ac%3Dd%25e:1,k%3A%3D=:-1');
    expect(parseLabelFilter(text)).toEqual(entries);
  });

  it('drops 0 states, malformed entries and forbidden keys', () => {
    expect(parseLabelFilter('a=b:0,c=d:1,e=f:2,novalue:1,=x:1,__proto__=x:1,constructor=y:-1,g=h')).toEqual([{ key: 'c', value: 'd', state: 1 }]);
    expect(parseLabelFilter(undefined)).toEqual([]);
  });

  it('keeps the last state of a value given twice', () => {
    expect(parseLabelFilter('a=b:1,a=b:-1')).toEqual([{ key: 'a', value: 'b', state: -1 }]);
  });

  it('sets and clears a value with the tri-state', () => {
    let entries = withLabelState([], 'env', 'prod', 1);
    expect(labelState(entries, 'env', 'prod')).toBe(1);
    entries = withLabelState(entries, 'env', 'prod', -1);
    expect(entries).toEqual([{ key: 'env', value: 'prod', state: -1 }]);
    expect(withLabelState(entries, 'env', 'prod', 0)).toEqual([]);
    expect(labelState([], 'env', 'prod')).toBe(0);
  });
});

describe('label filtering', () => {
  const pass = labelFilterPredicate(parseLabelFilter('env=prod:1,env=staging:1,team=web:-1'));
  it('includes any of a key’s values, and every key must match', () => {
    expect(pass({ env: 'prod' })).toBe(true);
    expect(pass({ env: 'staging', team: 'data' })).toBe(true);
    expect(pass({ env: 'dev' })).toBe(false);
    expect(pass({})).toBe(false);
  });
  it('excludes checks with an excluded value', () => {
    expect(pass({ env: 'prod', team: 'web' })).toBe(false);
    expect(labelFilterPredicate(parseLabelFilter('team=web:-1'))({})).toBe(true);
  });
  it('does not read labels through the prototype', () => {
    expect(labelFilterPredicate([{ key: 'toString', value: 'x', state: 1 }])({})).toBe(false);
  });
});

describe('label options', () => {
  it('lists keys with sorted values; all-true/false labels are toggles, others multi-selects', () => {
    const options = labelOptions([{ labels: { env: 'prod', critical: 'true' } }, { labels: { env: 'dev', critical: 'false' } }, { labels: { env: 'prod10' } }, { labels: { env: 'prod9' } }]);
    expect(options).toEqual([
      { key: 'critical', values: ['false', 'true'], boolean: true },
      { key: 'env', values: ['dev', 'prod', 'prod9', 'prod10'], boolean: false },
    ]);
  });

  it('summarises a multi-select with a count from 4 values (spec §9)', () => {
    const three = parseLabelFilter('env=a:1,env=b:1,env=c:-1');
    expect(multiSelectSummary(three, 'env')).toBe('a, b, −c');
    expect(multiSelectSummary(three, 'team')).toBe('All');
    const four = parseLabelFilter('env=a:1,env=b:1,env=c:-1,env=d:1');
    expect(multiSelectSummary(four, 'env')).toBe('3 included, 1 excluded');
  });
});
