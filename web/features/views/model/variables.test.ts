import { describe, expect, it } from 'vitest';
import { changeVariable, dependentsOf, isWaiting, readVariables, shownValue, writeVariables } from './variables';

const variables = [
  { key: 'cluster', dependsOn: null },
  { key: 'namespace', dependsOn: ['cluster'] },
  { key: 'pod', dependsOn: ['namespace'] },
  { key: 'team', dependsOn: null },
];

describe('view variables in the URL', () => {
  it('reads var-<key> params, and plain keys the view declares (Mission Control links)', () => {
    const params = new URLSearchParams('var-cluster=prod&namespace=web&sortBy=name&var-__proto__=x&var-=y');
    expect(readVariables(params)).toEqual({ cluster: 'prod' });
    expect(readVariables(params, ['namespace'])).toEqual({ cluster: 'prod', namespace: 'web' });
    expect(Object.getPrototypeOf(readVariables(new URLSearchParams('var-constructor=1')))).toBe(Object.prototype);
  });

  it('clears the variables that depend on a changed one, transitively', () => {
    expect(dependentsOf('cluster', variables).sort()).toEqual(['namespace', 'pod']);
    expect(changeVariable({ cluster: 'a', namespace: 'n', pod: 'p', team: 't' }, 'cluster', 'b', variables)).toEqual({ cluster: 'b', team: 't' });
    expect(changeVariable({ cluster: 'a' }, 'cluster', '', variables)).toEqual({});
  });

  it('writes the selection as var- params, dropping plain variable keys and the page, keeping the rest', () => {
    const params = new URLSearchParams('namespace=web&var-cluster=a&page=3&sortBy=name');
    expect(writeVariables(params, { cluster: 'b', namespace: 'api' }, ['namespace']).toString()).toBe('sortBy=name&var-cluster=b&var-namespace=api');
  });

  it('shows the chosen value, else the one the rows were made with, else the default; a dependent waits for its parent', () => {
    expect(shownValue({ key: 'a', default: 'd', selected: 's' }, { a: 'x' })).toBe('x');
    expect(shownValue({ key: 'a', default: 'd', selected: 's' }, {})).toBe('s');
    expect(shownValue({ key: 'a', default: 'd', selected: '' }, {})).toBe('d');
    const list = [{ key: 'cluster', default: undefined, selected: null }];
    expect(isWaiting({ dependsOn: ['cluster'] }, list, {})).toBe(true);
    expect(isWaiting({ dependsOn: ['cluster'] }, list, { cluster: 'a' })).toBe(false);
  });
});
