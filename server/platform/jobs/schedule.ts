import { Cron } from 'croner';

/**
 * A parsed schedule. `next(slot, now)` is the first due time after `now` that follows the slot just
 * claimed: slots missed while nothing ran (every instance down, a run longer than the interval) are
 * coalesced into one run, never replayed one by one.
 */
export interface Schedule {
  readonly text: string;
  next(slot: Date, now: Date): Date;
}

export class ScheduleError extends Error {
  constructor(text: string, reason: string) {
    super(`invalid schedule ${JSON.stringify(text)}: ${reason}`);
    this.name = 'ScheduleError';
  }
}

const UNIT_MILLIS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;

/** Shortest `@every` interval: finer schedules would spend more time claiming than working. */
export const MIN_INTERVAL_MILLIS = 1000;

/** Go-style durations as the upstream formats write them: `30s`, `5m`, `1h30m`, plus `d` for days. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DURATION.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(DURATION_PART)) {
    const [, amount, unit] = match;
    const factor = unit === undefined ? undefined : UNIT_MILLIS[unit];
    if (amount === undefined || factor === undefined) return undefined;
    total += Number(amount) * factor;
  }
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

class IntervalSchedule implements Schedule {
  constructor(
    readonly text: string,
    readonly intervalMillis: number,
  ) {}

  next(slot: Date, now: Date): Date {
    // Stay on the slot grid (slot + k·interval) so runs do not drift by their own latency.
    const elapsed = now.getTime() - slot.getTime();
    const steps = elapsed < 0 ? 1 : Math.floor(elapsed / this.intervalMillis) + 1;
    return new Date(slot.getTime() + steps * this.intervalMillis);
  }
}

class CronSchedule implements Schedule {
  constructor(
    readonly text: string,
    private readonly cron: Cron,
  ) {}

  next(_slot: Date, now: Date): Date {
    const next = this.cron.nextRun(now);
    if (next === null) throw new ScheduleError(this.text, 'it has no future run');
    return next;
  }
}

/** Aliases croner understands itself; listed so the error for a typo can name them. */
const CRON_ALIASES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/**
 * Parses cron (5 fields, or 6 with seconds), `@every <duration>` and the `@hourly`/`@daily`/`@weekly`
 * family. Cron fields are read in UTC so every instance agrees on a slot whatever its local timezone.
 */
export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim();
  if (trimmed === '') throw new ScheduleError(text, 'it is empty');
  if (trimmed.startsWith('@every')) {
    const rest = trimmed.slice('@every'.length);
    if (!/^\s+\S/.test(rest)) throw new ScheduleError(text, 'write @every <duration>, for example @every 30s or @every 5m');
    const millis = parseDuration(rest);
    if (millis === undefined) throw new ScheduleError(text, `${JSON.stringify(rest.trim())} is not a duration such as 30s, 5m, 1h30m or 1d`);
    if (millis < MIN_INTERVAL_MILLIS) throw new ScheduleError(text, 'the interval must be at least 1s');
    return new IntervalSchedule(trimmed, millis);
  }
  if (trimmed.startsWith('@') && !CRON_ALIASES.includes(trimmed.toLowerCase())) {
    throw new ScheduleError(text, `unknown shorthand; use @every <duration> or one of ${CRON_ALIASES.join(', ')}`);
  }
  let cron: Cron;
  try {
    cron = new Cron(trimmed.toLowerCase().startsWith('@') ? trimmed.toLowerCase() : trimmed, { paused: true, timezone: 'UTC', mode: '5-or-6-parts' });
  } catch (error) {
    throw new ScheduleError(text, error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error));
  }
  if (cron.nextRun(new Date()) === null) throw new ScheduleError(text, 'it has no future run');
  return new CronSchedule(trimmed, cron);
}

/**
 * A stable number in [0, 1) from a text, to place a row (or a check) within its interval: FNV-1a, then
 * MurmurHash3's finalizer, so keys that differ only in their last characters (endpoint-1, endpoint-2, …)
 * still land evenly rather than in bunches.
 */
export function stableFraction(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

/**
 * The first due time of a new schedulable row, for features that insert rows with a schedule. With a
 * `spreadKey`, an `@every` schedule starts at an offset within one interval taken from that key (as
 * Prometheus spreads its scrape targets), so thousands of rows applied together do not all fall due in the
 * same second but come due evenly; cron schedules keep their exact times.
 */
export function firstRunAt(schedule: string, now: Date = new Date(), spreadKey?: string): Date {
  const parsed = parseSchedule(schedule);
  if (spreadKey !== undefined && parsed instanceof IntervalSchedule) {
    return new Date(now.getTime() + Math.floor(stableFraction(spreadKey) * parsed.intervalMillis));
  }
  return parsed.next(now, now);
}
