import type pg from 'pg';
import { isRecord, messageOf } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { evaluateCel, evaluateTest, ExpressionError, renderTemplate } from './expressions';
import { recordResult, type CheckResult } from './results';
import { checkTypeOf } from './registry';
import type { Expression } from './spec';
import type { CheckOutcome } from './types';

/** A stored check as the runner needs it. */
export interface RunnableCheck {
  id: string;
  key: string;
  type: string;
  name: string;
  namespace: string;
  description: string | null;
  icon: string | null;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

export interface RunDeps {
  pool: pg.Pool;
  log: Logger;
}

export interface CanaryInfo {
  id: string;
  name: string;
  namespace: string;
  env: Record<string, string>;
}

/** One result of a transform: a check of its own, under the check that produced it. */
export interface TransformedResult {
  name: string;
  description: string | null;
  icon: string | null;
  labels: Record<string, string>;
  result: CheckResult;
}

export interface CheckRunOutcome {
  result: CheckResult;
  transformed: TransformedResult[] | undefined;
}

function readExpression(value: unknown): Expression | undefined {
  if (!isRecord(value)) return undefined;
  const expr = typeof value.expr === 'string' && value.expr.trim() !== '' ? value.expr : undefined;
  const template = typeof value.template === 'string' && value.template !== '' ? value.template : undefined;
  return expr || template ? { ...(expr ? { expr } : {}), ...(template ? { template } : {}) } : undefined;
}

/** Runs a type's check under a timeout; an exception becomes a failed result, never a crash. */
async function runType(check: RunnableCheck, canary: CanaryInfo, deps: RunDeps, parent: AbortSignal): Promise<{ outcome: CheckOutcome; duration: number }> {
  const type = checkTypeOf(check.type);
  if (!type) return { outcome: { pass: false, invalid: true, message: `the check type "${check.type}" is not supported by this version`, data: {} }, duration: 0 };
  const timeoutMs = type.timeoutMs(check.spec);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([parent, timeout]);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      type.run(check.spec, { signal, timeoutMs, env: canary.env, canary: { id: canary.id, name: canary.name, namespace: canary.namespace }, checkId: check.id, pool: deps.pool, log: deps.log }),
      // A type that ignores its signal still ends at the timeout (its work is abandoned).
      new Promise<CheckOutcome>((resolve) => {
        timer = setTimeout(() => resolve({ pass: false, message: `timed out after ${timeoutMs} ms`, error: 'timeout', data: {} }), timeoutMs + 250);
      }),
    ]);
    return { outcome, duration: outcome.duration ?? Math.round(performance.now() - started) };
  } catch (error) {
    const message = timeout.aborted ? `timed out after ${timeoutMs} ms` : `the check failed: ${messageOf(error)}`;
    return { outcome: { pass: false, message, error: messageOf(error), data: {} }, duration: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads the items a transform produced: a list (or one map) of results, each with a name. */
function transformedResults(value: unknown, time: Date, where: string, expression: string): TransformedResult[] {
  const list = Array.isArray(value) ? value : isRecord(value) ? [value] : undefined;
  if (!list) throw new ExpressionError(where, expression, 'must return a list of results (maps with name and pass)');
  return list.map((item, index) => {
    if (!isRecord(item) || typeof item.name !== 'string' || item.name.trim() === '') {
      throw new ExpressionError(where, expression, `result ${index + 1} has no name`);
    }
    const pass = typeof item.pass === 'boolean' ? item.pass : item.status === 'healthy' || item.status === true;
    const labels = isRecord(item.labels) ? Object.fromEntries(Object.entries(item.labels).map(([key, label]) => [key, String(label)])) : {};
    return {
      name: item.name.trim(),
      description: typeof item.description === 'string' ? item.description : null,
      icon: typeof item.icon === 'string' ? item.icon : null,
      labels,
      result: {
        pass,
        invalid: false,
        time,
        duration: typeof item.duration === 'number' ? item.duration : 0,
        message: typeof item.message === 'string' ? item.message : '',
        error: typeof item.error === 'string' ? item.error : null,
        details: isRecord(item.details) ? item.details : null,
      },
    };
  });
}

/**
 * One run of one check: the type runs (with its timeout), then `test.expr` decides pass or fail,
 * `display.expr` / `display.template` the message, and `transform.expr` may turn the result into several
 * checks. A bad expression fails the check with a message naming the expression.
 */
export async function runCheck(check: RunnableCheck, canary: CanaryInfo, deps: RunDeps, signal: AbortSignal): Promise<CheckRunOutcome> {
  const time = new Date();
  const { outcome, duration } = await runType(check, canary, deps, signal);
  return applyExpressions(check, canary, outcome, duration, time);
}

/**
 * A type's outcome through the check's `test`, `display` and `transform`: shared by scheduled runs and by
 * results that arrive from outside (webhook).
 */
export function applyExpressions(check: RunnableCheck, canary: CanaryInfo, outcome: CheckOutcome, duration: number, time: Date): CheckRunOutcome {
  const variables: Record<string, unknown> = {
    ...outcome.data,
    duration,
    check: { name: check.name, namespace: check.namespace, description: check.description, labels: check.labels },
    canary: { name: canary.name, namespace: canary.namespace },
    env: canary.env,
  };
  let pass = outcome.pass;
  let message = outcome.message ?? '';
  let error = outcome.error ?? null;
  let transformed: TransformedResult[] | undefined;
  try {
    const test = readExpression(check.spec.test);
    if (test?.expr && !outcome.invalid) {
      // The type's own verdict stands too: a test can fail a check, never make a failed one pass.
      if (!evaluateTest('test.expr', test.expr, variables)) {
        pass = false;
        message = `test failed: ${test.expr}${message ? ` (${message})` : ''}`;
      }
    }
    const display = readExpression(check.spec.display);
    if (display?.expr) message = String(evaluateCel('display.expr', display.expr, variables) ?? '');
    else if (display?.template) message = renderTemplate('display.template', display.template, variables);
    const transform = readExpression(check.spec.transform);
    if (transform?.expr && !outcome.invalid) transformed = transformedResults(evaluateCel('transform.expr', transform.expr, variables), time, 'transform.expr', transform.expr);
  } catch (thrown) {
    if (!(thrown instanceof ExpressionError)) throw thrown;
    pass = false;
    message = thrown.message;
    error = thrown.message;
  }
  return {
    result: { pass, invalid: outcome.invalid ?? false, time, duration, message, error, details: outcome.details ?? null },
    transformed,
  };
}

/** Runs a check and stores its result (and those of its transform), answering what was stored. */
export async function runAndRecord(check: RunnableCheck, canary: CanaryInfo, deps: RunDeps, signal: AbortSignal): Promise<CheckRunOutcome> {
  const outcome = await runCheck(check, canary, deps, signal);
  await recordOutcome(deps.pool, check, canary, outcome);
  return outcome;
}

/** Stores a check's result and the checks its transform made (rollups, transitions and events follow). */
export async function recordOutcome(pool: pg.Pool, check: RunnableCheck, canary: CanaryInfo, outcome: CheckRunOutcome): Promise<void> {
  await recordResult(pool, check.id, outcome.result);
  if (outcome.transformed) await recordTransformed(pool, check, canary, outcome.transformed);
}

/**
 * The checks a transform produced are checks of their own (key `<parent key>/<name>`), created on first
 * sight; those it no longer produces are handled by the parent's transformDeleteStrategy: MarkHealthy and
 * MarkUnhealthy record a last result, Ignore leaves them, and otherwise they are removed.
 */
async function recordTransformed(pool: pg.Pool, parent: RunnableCheck, canary: CanaryInfo, results: TransformedResult[]): Promise<void> {
  const seen = new Set<string>();
  for (const item of results) {
    const key = `${parent.key}/${item.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO checks (canary_id, key, type, name, namespace, description, icon, labels, spec, transformed_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}', $9)
       ON CONFLICT (canary_id, key) WHERE deleted_at IS NULL DO UPDATE SET description = EXCLUDED.description, icon = EXCLUDED.icon, labels = EXCLUDED.labels
       RETURNING id`,
      [canary.id, key, parent.type, item.name, parent.namespace, item.description, item.icon ?? parent.icon, JSON.stringify({ ...parent.labels, ...item.labels }), parent.id],
    );
    const id = rows[0]?.id;
    if (id) await recordResult(pool, id, item.result);
  }
  const strategy = parent.spec.transformDeleteStrategy;
  const gone = await pool.query<{ id: string }>('SELECT id FROM checks WHERE transformed_from = $1 AND deleted_at IS NULL AND NOT (key = ANY($2))', [parent.id, [...seen]]);
  for (const row of gone.rows) {
    if (strategy === 'Ignore') continue;
    if (strategy === 'MarkHealthy' || strategy === 'MarkUnhealthy') {
      await recordResult(pool, row.id, { pass: strategy === 'MarkHealthy', invalid: false, time: new Date(), duration: 0, message: 'no longer reported by the transform', error: null, details: null });
    } else {
      await pool.query('UPDATE checks SET deleted_at = now() WHERE id = $1', [row.id]);
    }
  }
}
