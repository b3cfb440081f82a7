import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { JobRun } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import type { CheckMetrics } from './check-metrics';
import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import { loadCanary, type CanaryForRun } from './canaries';
import { combinedJunitResult, JUNIT_RESULT_MODE } from './result-mode';
import { checkTypeOf } from './registry';
import { recordOutcome, resolveCanaryEnv, runCheck, type CanaryInfo, type CheckRun, type CheckRunOutcome, type RunnableCheck } from './runner';
import { parseCanarySpec, type CheckDefinition } from './spec';

/** Checks of one canary running at the same time. */
const CHECKS_AT_ONCE = 5;

interface CheckRow extends RunnableCheck {
  transformed_from: string | null;
}

async function checksOf(pool: pg.Pool, canaryId: string): Promise<CheckRow[]> {
  const { rows } = await pool.query<CheckRow>(
    `SELECT id, key, type, name, namespace, description, icon, endpoint, labels, spec, transformed_from FROM checks
      WHERE canary_id = $1 AND deleted_at IS NULL AND transformed_from IS NULL ORDER BY key`,
    [canaryId],
  );
  return rows;
}

/** At most `limit` tasks at a time. */
function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await work();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

export interface CanaryRunDeps {
  pool: pg.Pool;
  log: Logger;
  metrics?: CheckMetrics | undefined;
}

/**
 * Runs checks, each after the checks it `dependsOn` (their variables reach it as `outputs.<name>`; when one
 * of them failed it is not run and fails saying which). `record` stores a run as soon as it ends.
 */
async function runInOrder(
  checks: RunnableCheck[],
  dependsOn: (check: RunnableCheck) => string[],
  run: (check: RunnableCheck, outputs: Record<string, unknown> | undefined) => Promise<CheckRunOutcome>,
  skip: (check: RunnableCheck, outcome: CheckRunOutcome) => Promise<CheckRunOutcome> = async (_check, outcome) => outcome,
): Promise<CheckRun[]> {
  const byName = new Map(checks.map((check) => [check.name, check]));
  const started = new Map<string, Promise<CheckRun>>();
  const slot = limiter(CHECKS_AT_ONCE);
  const start = (check: RunnableCheck): Promise<CheckRun> => {
    let running = started.get(check.id);
    if (!running) {
      running = (async () => {
        const needs = dependsOn(check).map((name) => byName.get(name)).filter((found): found is RunnableCheck => found !== undefined);
        const before = await Promise.all(needs.map(start));
        const failed = before.filter((done) => !done.outcome.result.pass).map((done) => done.check.name);
        if (failed.length > 0) return { check, outcome: await skip(check, skipped(check, failed)) };
        const outputs = before.length > 0 ? Object.fromEntries(before.map((done) => [done.check.name, done.outcome.variables])) : undefined;
        return { check, outcome: await slot(() => run(check, outputs)) };
      })();
      started.set(check.id, running);
    }
    return running;
  };
  return Promise.all(checks.map(start));
}

/** A check its author may not run any more (a capability withdrawn): it fails with why, and runs nothing. */
function refused(message: string): CheckRunOutcome {
  return { result: { pass: false, invalid: true, time: new Date(), duration: 0, message, error: message, details: null }, transformed: undefined, metrics: [], variables: {} };
}

/**
 * The run-time half of capabilities (docs/SECURITY.md): a check whose spec runs code, reads server files or
 * uses a connection runs only while the canary's last author holds those capabilities; what the canary
 * itself uses (env from secrets) is asked for every check.
 */
function capabilityGate(deps: CanaryRunDeps, canary: CanaryForRun): (check: RunnableCheck) => Promise<string | undefined> {
  if (!canary.updatedBy) return async () => undefined;
  const perCanary = capabilityUses(Object.fromEntries(Object.entries(canary.spec).filter(([key]) => !checkTypeOf(key))));
  let canaryRefusal: Promise<string | undefined> | undefined;
  return async (check) => {
    canaryRefusal ??= runRefusal(deps.pool, canary.updatedBy, perCanary, canary.namespace).then((refusal) => refusal?.message);
    const whole = await canaryRefusal;
    if (whole) return whole;
    const uses = capabilityUses({ [check.type]: check.spec }, 'spec');
    return (await runRefusal(deps.pool, canary.updatedBy, uses, canary.namespace))?.message;
  };
}

function skipped(check: RunnableCheck, failed: string[]): CheckRunOutcome {
  const message = `not run: it depends on ${failed.map((name) => `"${name}"`).join(', ')}, which failed`;
  return { result: { pass: false, invalid: false, time: new Date(), duration: 0, message, error: message, details: null }, transformed: undefined, metrics: [], variables: {} };
}

/** The checks `wanted` needs: itself and, transitively, what it depends on. */
function withDependencies(all: RunnableCheck[], wanted: RunnableCheck, dependsOn: (check: RunnableCheck) => string[]): RunnableCheck[] {
  const byName = new Map(all.map((check) => [check.name, check]));
  const out = new Map<string, RunnableCheck>();
  const visit = (check: RunnableCheck) => {
    if (out.has(check.id)) return;
    out.set(check.id, check);
    for (const name of dependsOn(check)) {
      const found = byName.get(name);
      if (found) visit(found);
    }
  };
  visit(wanted);
  return [...out.values()];
}

/** A check of a canary in `resultMode: junit`: run from the spec, never stored on its own. */
function fromDefinition(definition: CheckDefinition): RunnableCheck {
  return {
    id: randomUUID(),
    key: definition.key,
    type: definition.type,
    name: definition.name,
    namespace: definition.namespace,
    description: definition.description,
    icon: definition.icon,
    endpoint: definition.endpoint,
    labels: definition.labels,
    spec: definition.spec,
  };
}

/**
 * Runs the checks of a canary (or one of them, with the checks it depends on) and stores every result.
 * Push checks (webhook) are not run: their results arrive from outside. With `resultMode: junit` the
 * checks run from the spec and only their combined JUnit report is stored, as one check.
 */
export async function runCanary(deps: CanaryRunDeps, canaryId: string, signal: AbortSignal, options: { onlyCheck?: string; job?: JobRun } = {}): Promise<CheckRun[]> {
  const canary = await loadCanary(deps.pool, canaryId);
  if (!canary) return [];
  const parsed = parseCanarySpec(canary.spec, { namespace: canary.namespace });
  const info: CanaryInfo = { id: canary.id, name: canary.name, namespace: canary.namespace, labels: canary.labels, ...(await resolveCanaryEnv(deps.pool, canary.namespace, parsed.env, parsed.envFrom)) };
  const stored = await checksOf(deps.pool, canaryId);
  await deps.pool.query("UPDATE checks SET next_runtime = (SELECT nullif(next_run_at, 'infinity') FROM canaries WHERE id = $1) WHERE canary_id = $1 AND deleted_at IS NULL", [canaryId]);
  const definitions = new Map(parsed.checks.map((definition) => [definition.key, definition]));
  const dependsOn = (check: RunnableCheck) => definitions.get(check.key)?.dependsOn ?? [];
  const gate = capabilityGate(deps, canary);
  const guardedRun = async (check: RunnableCheck, outputs: Record<string, unknown> | undefined): Promise<CheckRunOutcome> => {
    const refusal = await gate(check);
    return refusal ? refused(refusal) : runCheck(check, info, deps, signal, outputs);
  };
  const note = (check: RunnableCheck, outcome: CheckRunOutcome) => {
    if (outcome.result.invalid) options.job?.error(`${check.type} check "${check.name}": ${outcome.result.message}`);
    else options.job?.success();
  };

  if (parsed.resultMode === JUNIT_RESULT_MODE) {
    const combined = stored[0];
    if (!combined) return [];
    const checks = parsed.checks.filter((definition) => !checkTypeOf(definition.type)?.push).map(fromDefinition);
    const runs = await runInOrder(checks, dependsOn, guardedRun);
    const outcome = combinedJunitResult(canary.name, runs);
    await recordOutcome(deps, combined, info, outcome);
    note(combined, outcome);
    return [{ check: combined, outcome }];
  }

  let checks: RunnableCheck[] = stored.filter((check) => !checkTypeOf(check.type)?.push);
  if (options.onlyCheck) {
    const wanted = checks.find((check) => check.id === options.onlyCheck);
    checks = wanted ? withDependencies(checks, wanted, dependsOn) : [];
  }
  const record = async (check: RunnableCheck, outcome: CheckRunOutcome) => {
    await recordOutcome(deps, check, info, outcome);
    note(check, outcome);
    return outcome;
  };
  return runInOrder(
    checks,
    dependsOn,
    async (check, outputs) => {
      try {
        return await record(check, await guardedRun(check, outputs));
      } catch (error) {
        options.job?.error(error);
        throw error;
      }
    },
    record,
  );
}
