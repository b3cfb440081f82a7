import { evaluateCel, PLAYBOOK_FUNCTIONS, renderTemplate } from '../../platform/expressions';
import { parseDuration } from '../../platform/units';
import type { RunRow } from './run-context';
import { conditionExpression, templateText, type ActionSpec } from './spec';

/** The runner's timing: an action's delay, its retry backoff, and the run's and action's timeouts. */

/** Why an action or run was stopped: the reason becomes its status and error. */
export class StopReason extends Error {
  constructor(
    readonly kind: 'cancelled' | 'timed_out' | 'action_timed_out' | 'stopping' | 'lease_lost',
    message: string,
  ) {
    super(message);
  }
}

/** setTimeout's longest delay (about 24.8 days); longer timeouts are re-armed in steps. */
const MAX_TIMER_MILLIS = 2 ** 31 - 1;

/** Calls `fire` at the instant `at` (ms since the epoch), however far off; `clear()` cancels it. */
export function timerAt(at: number, fire: () => void): { clear(): void } {
  let handle: NodeJS.Timeout;
  const arm = () => {
    const left = at - Date.now();
    handle = left > MAX_TIMER_MILLIS ? setTimeout(arm, MAX_TIMER_MILLIS) : setTimeout(fire, Math.max(0, left));
  };
  arm();
  return { clear: () => clearTimeout(handle) };
}

/** When a run times out (ms since the epoch): its start plus its timeout. */
export function runDeadline(run: Pick<RunRow, 'start_time' | 'timeout_millis'>): number {
  return run.start_time.getTime() + Number(run.timeout_millis);
}

export function runTimedOutMessage(run: Pick<RunRow, 'timeout_millis'>): string {
  return `the run timed out after ${formatMillis(Number(run.timeout_millis))}`;
}

/** How long an attempt may take: the action's timeout, cut short by the run's deadline (Infinity: no limit). */
export function actionLimit(action: ActionSpec, deadline: number): number {
  return Math.min(action.timeout ?? Number.POSITIVE_INFINITY, deadline - Date.now());
}

/** Milliseconds before attempt retry_count + 1, or undefined when the retry policy is spent (or absent). */
export function retryDelay(action: ActionSpec, retryCount: number): number | undefined {
  const retry = action.retry;
  if (!retry || retryCount >= retry.limit) return undefined;
  const base = (retry.duration ?? 0) * (retry.exponent?.multiplier ?? 1) ** retryCount;
  const jitter = retry.jitter ? base * (retry.jitter / 100) * Math.random() : 0;
  return base + jitter;
}

/** A delay: a duration, a template giving one, or a CEL expression giving one (Mission Control's `params.delay`). */
export function delayOf(action: ActionSpec, data: Record<string, unknown>): number {
  if (!action.delay) return 0;
  const text = action.delay.includes('{{') ? renderTemplate(`${action.name}.delay`, templateText(action.delay), data, PLAYBOOK_FUNCTIONS).trim() : action.delay.trim();
  const direct = parseDuration(text);
  if (direct !== undefined) return direct;
  const value = evaluateCel(`action ${action.name} delay`, conditionExpression(text), data);
  const millis = typeof value === 'number' ? value * 1000 : parseDuration(String(value ?? ''));
  if (millis === undefined) throw new Error(`delay ${JSON.stringify(action.delay)} gave ${JSON.stringify(value)}, not a duration`);
  return millis;
}

export function formatMillis(millis: number): string {
  if (millis % 3_600_000 === 0) return `${millis / 3_600_000}h`;
  if (millis % 60_000 === 0) return `${millis / 60_000}m`;
  if (millis % 1000 === 0) return `${millis / 1000}s`;
  return `${Math.round(millis)}ms`;
}
