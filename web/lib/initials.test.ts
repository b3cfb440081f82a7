import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('avatar initials', () => {
  it('takes at most two initials (spec §9)', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('Ada King Countess Lovelace')).toBe('AL');
    expect(initials('grace')).toBe('G');
    expect(initials('j.doe@example.com')).toBe('JD');
    expect(initials('  ')).toBe('');
  });
});
