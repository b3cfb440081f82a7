import { parseSchedule, stableFraction } from '../../platform/jobs';

/**
 * When each check of a canary runs within the canary's slot (docs/HEALTH.md "When a check runs"). The
 * canary's slot is claimed once across instances, as every scheduled row's; its checks then each start at
 * their own instant, the same in every slot:
 *
 *   slot + lead + fraction(canary id, check key) × spread
 *
 * `lead` leaves time to claim the slot and read the canary before the first check is due (so a claim that
 * takes a few hundred milliseconds on a busy machine does not make early checks late); `spread` spreads the
 * canary's checks, 50 ms apart on average, over at most half its interval, so a canary of 200 checks does
 * not start them all in the same millisecond and still ends well before its next slot. A check's interval
 * is then exactly the canary's, whatever its neighbours take: each waits for its own instant only.
 */

/** Longest lead before a slot's first check; at most a tenth of the interval. */
export const LEAD_MILLIS = 1000;
/** Average distance between two checks of one canary, while their spread stays within half the interval. */
export const SPREAD_PER_CHECK_MILLIS = 50;

export interface CheckTimes {
  /** The interval from this slot to the next one (a cron schedule's may vary from slot to slot). */
  intervalMillis: number;
  /** When the check with this key starts, in ms since the epoch. */
  startOf(key: string): number;
}

export function checkTimes(canaryId: string, schedule: string, slot: Date, checkCount: number): CheckTimes {
  const start = slot.getTime();
  const intervalMillis = Math.max(0, parseSchedule(schedule).next(slot, slot).getTime() - start);
  const lead = Math.min(LEAD_MILLIS, Math.floor(intervalMillis / 10));
  const spread = Math.min(Math.floor(intervalMillis / 2), Math.max(0, checkCount) * SPREAD_PER_CHECK_MILLIS);
  return {
    intervalMillis,
    startOf: (key) => start + lead + Math.floor(stableFraction(`${canaryId}/${key}`) * spread),
  };
}
