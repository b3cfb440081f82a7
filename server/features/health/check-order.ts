import { TimerQueue } from '../../platform/jobs';
import type { CheckRun, CheckRunOutcome, RunnableCheck } from './runner';

/** At most `limit` tasks at a time; the others wait in order, each given the place of one that ended. */
export function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (active < limit) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/**
 * Checks running at the same time in this instance, over every canary of its scheduled runs: a bound on
 * sockets and processes that no normal load reaches (10,000 checks every 30 s of 5 s each hold about
 * 1,700), so it never serialises starts; past it a check waits for a place, and starts late.
 */
export const MAX_CHECKS_IN_FLIGHT = 2000;
export const inFlight = limiter(MAX_CHECKS_IN_FLIGHT);

/** One timer for every check waiting for its instant in this process. */
export const checkTimers = new TimerQueue();

/** When each check starts (scheduled runs): its own instant, or, for a check that depends on others, right after them. */
export interface Timing {
  startOf(check: RunnableCheck): number;
  signal: AbortSignal;
}

export interface RunInOrder {
  dependsOn: (check: RunnableCheck) => string[];
  run: (check: RunnableCheck, outputs: Record<string, unknown> | undefined) => Promise<CheckRunOutcome>;
  /** Records a check not run because a check it depends on failed. */
  skip: (check: RunnableCheck, outcome: CheckRunOutcome) => Promise<CheckRunOutcome>;
  /** Runs the work of one check (a bound on how many run at once). */
  limit: <T>(work: () => Promise<T>) => Promise<T>;
  timing?: Timing | undefined;
  /**
   * false: the answer leaves out the runs (a scheduled run stores its results and needs none back), so an
   * outcome (the answer's body, headers, variables) is let go as soon as its result is recorded rather
   * than held, and promoted to the old generation, until the canary's last check ends. Default true.
   */
  keep?: boolean;
}

/**
 * Runs checks, each after the checks it `dependsOn` (their variables reach it as `outputs.<name>`; when one
 * of them failed it is not run and `skip` records why). With `timing`, a check that depends on none waits
 * for its own instant and holds only itself: a slow neighbour never moves it. A check whose instant did not
 * come before `timing.signal` aborted (the instance stops, the lease was lost) is not run, and neither is
 * what depends on it: it is left out of the answer.
 */
export async function runInOrder(checks: RunnableCheck[], options: RunInOrder): Promise<CheckRun[]> {
  const { dependsOn, run, skip, limit, timing } = options;
  const keep = options.keep ?? true;
  const byName = new Map(checks.map((check) => [check.name, check]));
  // Checks others depend on: their outcome stays until the run ends (their variables are the others' outputs).
  const needed = new Set(checks.flatMap((check) => dependsOn(check)));
  /** A run; null: it ran and its outcome was let go; undefined: it did not run. */
  const started = new Map<string, Promise<CheckRun | null | undefined>>();
  const waiter = timing ? checkTimers.waiter(timing.signal) : undefined;
  const kept = (done: CheckRun): CheckRun | null => (keep || needed.has(done.check.name) ? done : null);
  const start = (check: RunnableCheck): Promise<CheckRun | null | undefined> => {
    let running = started.get(check.id);
    if (!running) {
      running = (async () => {
        const needs = dependsOn(check).map((name) => byName.get(name)).filter((found): found is RunnableCheck => found !== undefined);
        if (needs.length === 0 && timing && waiter && !(await waiter.until(timing.startOf(check)))) return undefined;
        const before = await Promise.all(needs.map(start));
        const ran = before.filter((done): done is CheckRun => done !== undefined && done !== null);
        if (ran.length < before.length) return undefined;
        const failed = ran.filter((done) => !done.outcome.result.pass).map((done) => done.check.name);
        if (failed.length > 0) return kept({ check, outcome: await skip(check, skipped(failed)) });
        const outputs = ran.length > 0 ? Object.fromEntries(ran.map((done) => [done.check.name, done.outcome.variables])) : undefined;
        return kept({ check, outcome: await limit(() => run(check, outputs)) });
      })();
      started.set(check.id, running);
    }
    return running;
  };
  // Every check runs to its end even when another one's failed to record: the first such error is thrown after.
  const settled = await Promise.allSettled(checks.map(start));
  const failure = settled.find((done) => done.status === 'rejected');
  if (failure) throw failure.reason;
  return keep ? settled.flatMap((done) => (done.status === 'fulfilled' && done.value ? [done.value] : [])) : [];
}

function skipped(failed: string[]): CheckRunOutcome {
  const message = `not run: it depends on ${failed.map((name) => `"${name}"`).join(', ')}, which failed`;
  return { result: { pass: false, invalid: false, time: new Date(), duration: 0, message, error: message, details: null }, transformed: undefined, metrics: [], variables: {} };
}
