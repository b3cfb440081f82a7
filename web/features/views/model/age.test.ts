import { describe, expect, it } from 'vitest';
import { currentAgeSeconds, refreshAgeText } from './age';

describe('refresh age', () => {
  it("adds the time since the answer arrived to the server's age", () => {
    expect(currentAgeSeconds(100, 1_000, 61_000)).toBe(160);
    expect(currentAgeSeconds(null, 0, 0)).toBeNull();
  });

  it('reads as a sentence', () => {
    expect(refreshAgeText(null)).toBe('Not refreshed yet');
    expect(refreshAgeText(5)).toBe('Refreshed just now');
    expect(refreshAgeText(60)).toBe('Refreshed 1 minute ago');
    expect(refreshAgeText(180)).toBe('Refreshed 3 minutes ago');
    expect(refreshAgeText(7200)).toBe('Refreshed 2 hours ago');
    expect(refreshAgeText(86_400 * 3)).toBe('Refreshed 3 days ago');
  });
});
