import { describe, expect, it } from 'vitest';
import { isOneOf, propertyOf } from './guards';

describe('isOneOf', () => {
  const COLORS = ['red', 'green'] as const;

  it('accepts a listed value and narrows it to the list type', () => {
    const value: string = 'green';
    expect(isOneOf(COLORS, value)).toBe(true);
    if (isOneOf(COLORS, value)) {
      const narrowed: 'red' | 'green' = value;
      expect(narrowed).toBe('green');
    }
  });

  it('refuses what is not listed, of any type', () => {
    expect(isOneOf(COLORS, 'blue')).toBe(false);
    expect(isOneOf(COLORS, 'Red')).toBe(false);
    expect(isOneOf(COLORS, undefined)).toBe(false);
    expect(isOneOf(COLORS, 1)).toBe(false);
  });
});

describe('propertyOf', () => {
  it('reads a field of an object, a function or an error, and nothing of other values', () => {
    expect(propertyOf({ code: 'EEXIST' }, 'code')).toBe('EEXIST');
    expect(propertyOf(Object.assign(new Error('x'), { code: 'E' }), 'code')).toBe('E');
    expect(propertyOf(Object.assign(() => 1, { tag: 't' }), 'tag')).toBe('t');
    expect(propertyOf({}, 'code')).toBeUndefined();
    expect(propertyOf(null, 'code')).toBeUndefined();
    expect(propertyOf(undefined, 'code')).toBeUndefined();
    expect(propertyOf('text', 'length')).toBeUndefined();
  });
});
