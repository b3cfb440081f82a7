import type pg from 'pg';
import { isRecord, messageOf } from '../../platform/errors';
import { ExpressionError, readTemplateSpec, templateSpecText, evaluateTemplateSpec, type TemplateSpec } from '../../platform/expressions';
import type { Logger } from '../../platform/logger';
import { withoutSecrets, withoutSecretsDeep } from '../../platform/peers/credentials';
import { secretStore } from '../../platform/secrets';
import { resolveEnvVar } from '../../platform/secrets/resolve';
import { hasReferences, resolveSpecReferences } from '../../platform/secrets/spec-references';
import type { CheckMetrics } from './check-metrics';
import { metricSamples } from './check-metrics';
import { recordResult, type CheckResult } from './results';
import { recordResultSoon } from './result-writer';
import { checkTypeOf } from './registry';
import { readTransform, type MetricSample, type TransformedResult } from './transform';
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
  endpoint: string | null;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

export interface RunDeps {
  pool: pg.Pool;
  log: Logger;
  /** Where the checks' own `metrics` are exported (/metrics); none in tools that only run checks. */
  metrics?: CheckMetrics | undefined;
}

export interface CanaryInfo {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  env: Record<string, string>;
  /** `spec.env` entries that could not be read (a missing secret or key): every check of the canary fails naming them. */
  unreadEnv?: string[];
  /** Clear values read from secrets for this run, kept out of every message. */
  secrets?: string[];
}

/**
 * The canary's `spec.env` with every `valueFrom` read from its secret, config map or Helm release (in
 * the canary's namespace). What cannot be read is named in `unreadEnv`; every check then fails with it.
 */
export async function resolveCanaryEnv(pool: pg.Pool, namespace: string, env: Record<string, string>, envFrom: Record<string, unknown>): Promise<Pick<CanaryInfo, 'env' | 'unreadEnv' | 'secrets'>> {
  const names = Object.keys(envFrom);
  if (names.length === 0) return { env };
  const store = secretStore(pool);
  const resolved = { ...env };
  const unreadEnv: string[] = [];
  const secrets: string[] = [];
  for (const name of names) {
    try {
      resolved[name] = await resolveEnvVar(store, namespace, { valueFrom: envFrom[name] }, `spec.env.${name}`);
      secrets.push(resolved[name]);
    } catch (error) {
      unreadEnv.push(messageOf(error));
    }
  }
  return { env: resolved, unreadEnv, secrets };
}

export interface CheckRunOutcome {
  result: CheckResult;
  /** The checks a transform made of this result, when it made any. */
  transformed: TransformedResult[] | undefined;
  /** The check's metrics (its `metrics` and those of an in-line transform), for /metrics. */
  metrics: MetricSample[];
  /** What the check's expressions saw: checks that depend on it read it as `outputs.<name>`. */
  variables: Record<string, unknown>;
}

/** A check with the outcome of its run. */
export interface CheckRun {
  check: RunnableCheck;
  outcome: CheckRunOutcome;
}

/**
 * Runs a type's check under a timeout; an exception becomes a failed result, never a crash. The outcome is
 * as the type saw it (what the check's expressions see); `secrets` are the clear values read from secrets
 * and connections for this run, to keep out of what is stored.
 */
async function runType(check: RunnableCheck, canary: CanaryInfo, deps: RunDeps, parent: AbortSignal): Promise<{ outcome: CheckOutcome; duration: number; secrets: string[] }> {
  const secrets = [...(canary.secrets ?? [])];
  const type = checkTypeOf(check.type);
  if (!type) return { outcome: { pass: false, invalid: true, message: `the check type "${check.type}" is not supported by this version`, data: {} }, duration: 0, secrets };
  if (canary.unreadEnv && canary.unreadEnv.length > 0) {
    const message = canary.unreadEnv.join('; ');
    return { outcome: { pass: false, message, error: message, data: {} }, duration: 0, secrets };
  }
  let spec = check.spec;
  if (hasReferences(spec)) {
    try {
      const resolved = await resolveSpecReferences(secretStore(deps.pool), spec, canary.namespace, `spec.${check.type}`);
      spec = resolved.spec;
      secrets.push(...resolved.secrets);
    } catch (error) {
      const message = withoutSecrets(messageOf(error), secrets);
      return { outcome: { pass: false, message, error: message, data: {} }, duration: 0, secrets };
    }
  }
  const timeoutMs = type.timeoutMs(spec);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([parent, timeout]);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      type.run(spec, { signal, timeoutMs, env: canary.env, canary: { id: canary.id, name: canary.name, namespace: canary.namespace }, checkId: check.id, pool: deps.pool, log: deps.log }),
      // A type that ignores its signal still ends at the timeout (its work is abandoned).
      new Promise<CheckOutcome>((resolve) => {
        timer = setTimeout(() => resolve({ pass: false, message: `timed out after ${timeoutMs} ms`, error: 'timeout', data: {} }), timeoutMs + 250);
      }),
    ]);
    return { outcome, duration: outcome.duration ?? Math.round(performance.now() - started), secrets };
  } catch (error) {
    const message = timeout.aborted ? `timed out after ${timeoutMs} ms` : `the check failed: ${messageOf(error)}`;
    return { outcome: { pass: false, message, error: messageOf(error), data: {} }, duration: Math.round(performance.now() - started), secrets };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One run of one check: the type runs (with its timeout), then the check's `transform`, `display` and
 * `test` apply as canary-checker applies them. `outputs` are the variables of the checks it depends on.
 */
export async function runCheck(check: RunnableCheck, canary: CanaryInfo, deps: RunDeps, signal: AbortSignal, outputs?: Record<string, unknown>): Promise<CheckRunOutcome> {
  const time = new Date();
  const ran = await runType(check, canary, deps, signal);
  // The checks it depends on hand it their variables in clear: their secrets are kept out of its result too.
  const secrets = [...ran.secrets, ...Object.values(outputs ?? {}).flatMap((variables) => (isRecord(variables) ? (secretsOfVariables.get(variables) ?? []) : []))];
  const outcome = withoutRunSecrets(applyExpressions(check, canary, ran.outcome, ran.duration, time, outputs), secrets);
  if (secrets.length > 0) secretsOfVariables.set(outcome.variables, secrets);
  return outcome;
}

/** The secrets a run's (clear) variables may hold, for the checks that read them as `outputs.<name>`. */
const secretsOfVariables = new WeakMap<object, string[]>();

/**
 * A run's outcome as it is stored and shown: values read from secrets and connections (passwords, keys,
 * tokens; never user names) are `***` in its result (message, error, details), the checks its transform made
 * and its metrics' labels. Its `variables` stay as the expressions saw them: checks that depend on it read
 * them (`outputs.<name>`), and they are never stored.
 */
function withoutRunSecrets(ran: CheckRunOutcome, secrets: string[]): CheckRunOutcome {
  if (secrets.length === 0) return ran;
  return {
    ...ran,
    result: withoutSecretsDeep(ran.result, secrets),
    transformed: ran.transformed === undefined ? undefined : withoutSecretsDeep(ran.transformed, secrets),
    metrics: ran.metrics.map((sample) => ({ ...sample, labels: withoutSecretsDeep(sample.labels, secrets) })),
  };
}

/**
 * The variables every expression of a check sees (canary-checker's check context): the type's own
 * (code, json, results…), `duration`, `check`, `canary`, the canary's `env`, and `outputs` of the checks it
 * depends on.
 */
export function checkVariables(check: RunnableCheck, canary: CanaryInfo, data: Record<string, unknown>, duration: number, outputs?: Record<string, unknown>): Record<string, unknown> {
  return {
    ...data,
    duration,
    check: { id: check.id, name: check.name, namespace: check.namespace, description: check.description ?? '', labels: check.labels, endpoint: check.endpoint ?? '' },
    canary: { id: canary.id, name: canary.name, namespace: canary.namespace, labels: canary.labels },
    env: canary.env,
    ...(outputs ? { outputs } : {}),
  };
}

/** A test: canary-checker passes on the text "true", fails on "false", and calls anything else a mistake. */
function runTest(where: string, test: TemplateSpec, variables: Record<string, unknown>): string | undefined {
  const answer = templateSpecText(where, test, variables).trim();
  if (answer === 'true') return undefined;
  const [field, shown] = test.javascript !== undefined ? ['javascript', test.javascript] : test.template !== undefined ? ['template', test.template] : ['expr', test.expr ?? ''];
  if (answer === 'false') return `Test expression failed. Expecting true from: ${shown}`;
  throw new ExpressionError(`${where}.${field}`, shown, `expecting either 'true' or 'false' but got '${answer}'`);
}

/**
 * A type's outcome through the check's `transform`, `display` and `test` (in canary-checker's order), and
 * its `metrics`: shared by scheduled runs and by results that arrive from outside (webhook). A transform
 * that names checks of its own makes them; one without a name changes this result in place.
 */
export function applyExpressions(check: RunnableCheck, canary: CanaryInfo, outcome: CheckOutcome, duration: number, time: Date, outputs?: Record<string, unknown>): CheckRunOutcome {
  let variables = checkVariables(check, canary, outcome.data, duration, outputs);
  const result: CheckResult = {
    pass: outcome.pass,
    invalid: outcome.invalid ?? false,
    time,
    duration,
    message: outcome.message ?? '',
    error: outcome.error ?? null,
    details: outcome.details ?? null,
    ...(outcome.artifacts ? { artifacts: outcome.artifacts } : {}),
  };
  let transformed: TransformedResult[] | undefined;
  const metrics: MetricSample[] = [];
  try {
    const transform = readTemplateSpec(check.spec.transform);
    if (transform && !outcome.invalid) {
      const answer = readTransform(evaluateTemplateSpec('transform', transform, variables), check, time, 'transform', transform.expr ?? transform.template ?? transform.javascript ?? '');
      if (answer.kind === 'checks') transformed = answer.results;
      else {
        const { patch } = answer;
        if (patch.pass !== undefined) result.pass = patch.pass;
        if (patch.invalid !== undefined) result.invalid = patch.invalid;
        if (patch.duration !== undefined) result.duration = patch.duration;
        if (patch.message !== undefined) result.message = patch.message;
        if (patch.error !== undefined) result.error = patch.error;
        if (patch.detail === '$delete') result.details = null;
        else if (isRecord(patch.detail)) result.details = patch.detail;
        if (patch.data) variables = { ...variables, ...patch.data };
        metrics.push(...patch.metrics);
      }
    }
    const display = readTemplateSpec(check.spec.display);
    if (display) result.message = templateSpecText('display', display, variables);
    const test = readTemplateSpec(check.spec.test);
    if (test && !outcome.invalid) {
      const failure = runTest('test', test, variables);
      // The type's own verdict stands too: a test can fail a check, never make a failed one pass.
      if (failure) {
        result.pass = false;
        result.error = result.error ? `${result.error}, ${failure}` : failure;
        const shown = test.expr ?? test.template ?? test.javascript ?? '';
        if (!display) result.message = `test failed: ${shown}${result.message ? ` (${result.message})` : ''}`;
      }
    }
  } catch (thrown) {
    if (!(thrown instanceof ExpressionError)) throw thrown;
    result.pass = false;
    result.message = thrown.message;
    result.error = thrown.message;
  }
  const own = metricSamples(check.spec.metrics, variables);
  metrics.push(...own.samples);
  if (own.problems.length > 0) result.error = [result.error, ...own.problems].filter(Boolean).join(', ');
  return { result, transformed, metrics, variables };
}

/** Runs a check and stores its result (and those of its transform), answering what was stored. */
export async function runAndRecord(check: RunnableCheck, canary: CanaryInfo, deps: RunDeps, signal: AbortSignal, outputs?: Record<string, unknown>): Promise<CheckRunOutcome> {
  const outcome = await runCheck(check, canary, deps, signal, outputs);
  await recordOutcome(deps, check, canary, outcome);
  return outcome;
}

/**
 * Stores a check's result and the checks its transform made (rollups, transitions and events follow), and
 * exports its metrics. The result goes with the others of the same few milliseconds (result-writer.ts);
 * `nextRuntime` is when a scheduled check runs next.
 */
export async function recordOutcome(deps: RunDeps, check: RunnableCheck, canary: CanaryInfo, outcome: CheckRunOutcome, nextRuntime?: Date): Promise<void> {
  const problems = deps.metrics ? deps.metrics.export(outcome.metrics) : [];
  const result = problems.length > 0 ? { ...outcome.result, error: [outcome.result.error, ...problems].filter(Boolean).join(', ') } : outcome.result;
  await recordResultSoon(deps.pool, { checkId: check.id, result, nextRuntime }, deps.metrics?.resultWrites);
  if (outcome.transformed) await recordTransformed(deps, check, canary, outcome.transformed);
}

/** A transformed check's key: under its parent, with its namespace when that is another one. */
function transformedKey(parent: RunnableCheck, item: TransformedResult): string {
  return item.namespace && item.namespace !== parent.namespace ? `${parent.key}/${item.namespace}/${item.name}` : `${parent.key}/${item.name}`;
}

/**
 * The checks a transform produced are checks of their own, created on first sight (in the namespace the
 * transform gives, or the parent's); those it no longer produces, or reports deleted, follow their
 * transformDeleteStrategy: MarkHealthy and MarkUnhealthy record a last result, Ignore leaves them, and
 * otherwise they are removed.
 */
async function recordTransformed(deps: RunDeps, parent: RunnableCheck, canary: CanaryInfo, results: TransformedResult[]): Promise<void> {
  const { pool } = deps;
  const seen = new Set<string>();
  for (const item of results) {
    const key = transformedKey(parent, item);
    if (seen.has(key) || item.deleted) continue;
    seen.add(key);
    const strategy = item.transformDeleteStrategy ?? (typeof parent.spec.transformDeleteStrategy === 'string' ? parent.spec.transformDeleteStrategy : null);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO checks (canary_id, key, type, name, namespace, description, icon, endpoint, labels, spec, transformed_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (canary_id, key) WHERE deleted_at IS NULL DO UPDATE SET
         type = EXCLUDED.type, description = EXCLUDED.description, icon = EXCLUDED.icon, endpoint = EXCLUDED.endpoint, labels = EXCLUDED.labels, spec = EXCLUDED.spec
       RETURNING id`,
      [
        canary.id,
        key,
        item.type ?? parent.type,
        item.name,
        item.namespace ?? parent.namespace,
        item.description ?? parent.description,
        item.icon ?? parent.icon,
        item.endpoint ?? parent.endpoint,
        JSON.stringify({ ...parent.labels, ...item.labels }),
        JSON.stringify(strategy ? { transformDeleteStrategy: strategy } : {}),
        parent.id,
      ],
    );
    const id = rows[0]?.id;
    if (id) await recordResult(pool, id, item.result);
    if (deps.metrics) deps.metrics.export(item.metrics);
  }
  const parentStrategy = typeof parent.spec.transformDeleteStrategy === 'string' ? parent.spec.transformDeleteStrategy : null;
  const gone = await pool.query<{ id: string; spec: unknown }>('SELECT id, spec FROM checks WHERE transformed_from = $1 AND deleted_at IS NULL AND NOT (key = ANY($2))', [parent.id, [...seen]]);
  for (const row of gone.rows) {
    const own = isRecord(row.spec) && typeof row.spec.transformDeleteStrategy === 'string' ? row.spec.transformDeleteStrategy : null;
    const strategy = own ?? parentStrategy;
    if (strategy === 'Ignore') continue;
    if (strategy === 'MarkHealthy' || strategy === 'MarkUnhealthy') {
      await recordResult(pool, row.id, { pass: strategy === 'MarkHealthy', invalid: false, time: new Date(), duration: 0, message: 'no longer reported by the transform', error: null, details: null });
    } else {
      await pool.query('UPDATE checks SET deleted_at = now() WHERE id = $1', [row.id]);
    }
  }
}
