import type { BadgeTone } from '@web/ui/primitives/badge';

/** Run statuses (migration 0019): scheduled → (pending_approval →) running ⇄ sleeping → a final one. */
export const RUN_STATUSES = ['scheduled', 'pending_approval', 'running', 'waiting', 'sleeping', 'retrying', 'completed', 'failed', 'cancelled', 'timed_out'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run in one of these does not change any more: the run page stops polling. */
export const FINAL_RUN_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled', 'timed_out'];
export const isFinalStatus = (status: string) => FINAL_RUN_STATUSES.includes(status);

/** An action in one of these is done (the runner's FINAL_ACTION). */
const FINAL_ACTION_STATUSES: readonly string[] = ['completed', 'failed', 'skipped', 'cancelled', 'timed_out'];
/** How long after a run ends its actions are still followed while one of them is not done yet. */
export const ACTIONS_SETTLE_MS = 30_000;

/**
 * Whether a run's actions are still followed: while the run goes on, and for a while after it ends while
 * an action is not done (a cancelled run's action is recorded once its process has stopped) or the actions
 * were last read before the run ended (`fetchedAt`, ms): the list read just before the end may not hold
 * the last action's outcome, or any action at all.
 */
export function followActions(
  run: { status: string; end_time?: string | null | undefined },
  actions: readonly { status: string }[] | undefined,
  fetchedAt: number,
  now: number = Date.now(),
): boolean {
  if (!isFinalStatus(run.status)) return true;
  const ended = run.end_time ? new Date(run.end_time).getTime() : Number.NaN;
  if (Number.isNaN(ended) || now - ended >= ACTIONS_SETTLE_MS) return false;
  return fetchedAt <= ended || (actions?.some((action) => !FINAL_ACTION_STATUSES.includes(action.status)) ?? true);
}

/** 'pending_approval' → 'Pending approval'. */
export function statusLabel(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Green done, red failed or timed out, amber waiting on someone or something, blue under way, grey otherwise. */
export function statusTone(status: string): BadgeTone {
  switch (status) {
    case 'completed':
      return 'success';
    case 'failed':
    case 'timed_out':
      return 'danger';
    case 'pending_approval':
    case 'waiting':
    case 'sleeping':
    case 'retrying':
      return 'warning';
    case 'running':
      return 'info';
    default:
      return 'neutral';
  }
}

/** Milliseconds between start and end (or now, while it runs); undefined before it starts. */
export function durationOf(start: string | null | undefined, end: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!start) return undefined;
  const from = new Date(start).getTime();
  const to = end ? new Date(end).getTime() : now;
  return Number.isFinite(from) && Number.isFinite(to) ? Math.max(0, to - from) : undefined;
}
