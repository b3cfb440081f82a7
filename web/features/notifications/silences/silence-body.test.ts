import { describe, expect, it } from 'vitest';
import { futureRange } from '@web/ui/time-range';
import { silenceBody } from './add-silence-page';

const base = { target: null, recursive: false, filter: "check.type == 'http'", description: '', from: '', until: futureRange('1h') };

describe('the Add Silence body', () => {
  it('reads From as the console writes dates (YYYY-MM-DD HH:MM, the browser zone), not the browser-native mm/dd/yyyy', () => {
    const body = silenceBody({ ...base, from: '2026-10-28 12:18' }, new Date('2026-01-01T00:00:00Z'));
    expect(body?.from).toBe(new Date(2026, 9, 28, 12, 18).toISOString());
    // The relative end counts from From.
    expect(body?.until).toBe(new Date(2026, 9, 28, 13, 18).toISOString());
  });

  it('leaves From out when empty (now) or not a date (the form names the problem on save)', () => {
    expect(silenceBody({ ...base, from: '' })?.from).toBeUndefined();
    expect(silenceBody({ ...base, from: '10/28/2026' })?.from).toBeUndefined();
  });
});
