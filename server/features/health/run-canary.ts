import type pg from 'pg';
import type { JobRun } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import { loadCanary } from './canaries';
import { checkTypeOf } from './registry';
import { runAndRecord, type CanaryInfo, type CheckRunOutcome, type RunnableCheck } from './runner';
import { parseCanarySpec } from './spec';

/** Checks of one canary running at the same time. */
const CHECKS_AT_ONCE = 5;

interface CheckRow extends RunnableCheck {
  transformed_from: string | null;
}

async function checksOf(pool: pg.Pool, canaryId: string, onlyId?: string): Promise<CheckRow[]> {
  const { rows } = await pool.query<CheckRow>(
    `SELECT id, key, type, name, namespace, description, icon, labels, spec, transformed_from FROM checks
      WHERE canary_id = $1 AND deleted_at IS NULL AND transformed_from IS NULL AND ($2::uuid IS NULL OR id = $2) ORDER BY key`,
    [canaryId, onlyId ?? null],
  );
  return rows;
}

/** Runs items with at most `limit` at a time. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index];
      if (item !== undefined) results[index] = await work(item);
    }
  });
  await Promise.all(lanes);
  return results;
}

export interface CanaryRunDeps {
  pool: pg.Pool;
  log: Logger;
}

/**
 * Runs the checks of a canary (or one of them) and stores every result. Push checks (webhook) are not run:
 * their results arrive from outside.
 */
export async function runCanary(deps: CanaryRunDeps, canaryId: string, signal: AbortSignal, options: { onlyCheck?: string; job?: JobRun } = {}): Promise<Array<{ check: RunnableCheck; outcome: CheckRunOutcome }>> {
  const canary = await loadCanary(deps.pool, canaryId);
  if (!canary) return [];
  const parsed = parseCanarySpec(canary.spec, { namespace: canary.namespace });
  const info: CanaryInfo = { id: canary.id, name: canary.name, namespace: canary.namespace, env: parsed.env };
  const checks = (await checksOf(deps.pool, canaryId, options.onlyCheck)).filter((check) => !checkTypeOf(check.type)?.push);
  await deps.pool.query("UPDATE checks SET next_runtime = (SELECT nullif(next_run_at, 'infinity') FROM canaries WHERE id = $1) WHERE canary_id = $1 AND deleted_at IS NULL", [canaryId]);
  return pool(checks, CHECKS_AT_ONCE, async (check) => {
    try {
      const outcome = await runAndRecord(check, info, deps, signal);
      if (outcome.result.invalid) options.job?.error(`${check.type} check "${check.name}": ${outcome.result.message}`);
      else options.job?.success();
      return { check, outcome };
    } catch (error) {
      options.job?.error(error);
      throw error;
    }
  });
}
