import { describe, expect, it } from 'vitest';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from './url-state';

describe('readSearchParams', () => {
  it('ignores __proto__ and constructor', () => {
    const state = readSearchParams(new URLSearchParams('__proto__=x&constructor=y&prototype=z&name=a'));
    expect(Object.keys(state)).toEqual(['name']);
    expect(state.name).toBe('a');
    expect(Object.getPrototypeOf(state)).toBeNull();
  });
});

describe('helpers', () => {
  it('picks allowed options and integers only', () => {
    expect(pickOption('b', ['a', 'b'] as const, 'a')).toBe('b');
    expect(pickOption('toString', ['a', 'b'] as const, 'a')).toBe('a');
    expect(readInteger('12', 0)).toBe(12);
    expect(readInteger('-1', 0)).toBe(0);
    expect(readInteger('1e3', 5)).toBe(5);
    expect(readInteger('0', 150, { min: 1 })).toBe(150);
  });
  it('patches params, dropping defaults, empties and forbidden keys', () => {
    const next = patchSearchParams(new URLSearchParams('a=1&b=2'), { a: undefined, b: 'x', c: 'SUCCESS', __proto__: 'y', d: '' }, { c: 'SUCCESS' });
    expect(next.toString()).toBe('b=x');
  });
});
