import { describe, expect, it } from 'vitest';
import { ACTIONS_SETTLE_MS, followActions } from './status';

describe('followActions', () => {
  const ended = '2026-01-01T00:00:00.000Z';
  const at = (ms: number) => new Date(ended).getTime() + ms;

  it('follows a run under way', () => {
    expect(followActions({ status: 'running', end_time: null }, [{ status: 'running' }], Date.now())).toBe(true);
    expect(followActions({ status: 'pending_approval' }, undefined, 0)).toBe(true);
  });

  it('stops once the run and its actions are done', () => {
    expect(followActions({ status: 'completed', end_time: ended }, [{ status: 'completed' }, { status: 'skipped' }], at(500), at(1000))).toBe(false);
  });

  it("keeps following a cancelled run's action under way until it is recorded, for a while", () => {
    expect(followActions({ status: 'cancelled', end_time: ended }, [{ status: 'running' }], at(500), at(1000))).toBe(true);
    expect(followActions({ status: 'cancelled', end_time: ended }, [{ status: 'cancelled' }], at(500), at(1000))).toBe(false);
    expect(followActions({ status: 'cancelled', end_time: ended }, [{ status: 'running' }], at(500), at(ACTIONS_SETTLE_MS + 1))).toBe(false);
    expect(followActions({ status: 'cancelled', end_time: null }, [{ status: 'running' }], at(500), at(1000))).toBe(false);
  });

  it('reads the actions once more when they were last read before the run ended (none yet, or the last one not done)', () => {
    expect(followActions({ status: 'completed', end_time: ended }, [], at(-200), at(1000))).toBe(true);
    expect(followActions({ status: 'completed', end_time: ended }, [{ status: 'completed' }], at(-200), at(1000))).toBe(true);
    expect(followActions({ status: 'completed', end_time: ended }, [], at(300), at(1000))).toBe(false);
    expect(followActions({ status: 'completed', end_time: ended }, [], at(-200), at(ACTIONS_SETTLE_MS))).toBe(false);
  });
});
