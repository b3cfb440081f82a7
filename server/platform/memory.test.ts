import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from './memory';

describe('boundHeapGrowth', () => {
  it('sets the heap growth unless node was started with its own', () => {
    const set: string[] = [];
    const setFlags = (flags: string) => void set.push(flags);
    expect(boundHeapGrowth(['--heap-growing-percent=80'], setFlags)).toBe(false);
    expect(boundHeapGrowth(['--heap_growing_percent', '80'], setFlags)).toBe(false);
    expect(set).toEqual([]);
    expect(boundHeapGrowth(['--enable-source-maps'], setFlags)).toBe(true);
    expect(set).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });
});
