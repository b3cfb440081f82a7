import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { JobRun } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import type { CheckMetrics } from './check-metrics';
import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import { loadCanary, type CanaryForRun } from './canaries';
import { combinedJunitResult, JUNIT_RESULT_MODE } from './result-mode';
import { checkTypeOf } from './registry';
import { inFlight, limiter, runInOrder } from './check-order';
import { checkTimes } from './check-times';
import { recordOutcome, resolveCanaryEnv, runCheck, type CanaryInfo, type CheckRun, type CheckRunOutcome, type RunnableCheck } from './runner';
import { parseCanarySpec, type CheckDefinition, type ParsedCanary } from './spec';

/** Checks of one canary running at the same time when it runs at once (Run Now, a run outside the schedule). */
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

/**
 * The canary's spec as read last time it had this text and namespace: reading a spec of 200 checks takes
 * 10-50 ms of the event loop, which would hold back every check due meanwhile, once a slot.
 */
const parsedSpecs = new Map<string, { key: string; parsed: ParsedCanary }>();
const MAX_PARSED_SPECS = 20_000;

function parsedSpec(canary: CanaryForRun): ParsedCanary {
  const key = `${canary.namespace}\n${canary.specHash}`;
  const cached = parsedSpecs.get(canary.id);
  if (cached?.key === key) return cached.parsed;
  const parsed = parseCanarySpec(canary.spec, { namespace: canary.namespace });
  parsedSpecs.delete(canary.id);
  parsedSpecs.set(canary.id, { key, parsed });
  // Bounded: the canaries read longest ago go first (a deleted canary is never read again).
  for (const [id] of parsedSpecs) {
    if (parsedSpecs.size <= MAX_PARSED_SPECS) break;
    parsedSpecs.delete(id);
  }
  return parsed;
}

export interface CanaryRunDeps {
  pool: pg.Pool;
  log: Logger;
  metrics?: CheckMetrics | undefined;
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

/** The slot a scheduled run was claimed for, and the canary's schedule then. */
export interface CanarySlot {
  at: Date;
  schedule: string;
}

/**
 * Runs the checks of a canary (or one of them, with the checks it depends on) and stores every result.
 * Push checks (webhook) are not run: their results arrive from outside. With `resultMode: junit` the
 * checks run from the spec and only their combined JUnit report is stored, as one check. A scheduled run
 * (`slot`) starts each check at its own instant within the slot (check-times.ts) and waits only for the
 * checks a check depends on, and answers no runs (its results are stored); a run without one (Run Now)
 * runs them at once, a few at a time, and answers them.
 */
export async function runCanary(deps: CanaryRunDeps, canaryId: string, signal: AbortSignal, options: { onlyCheck?: string; job?: JobRun; slot?: CanarySlot } = {}): Promise<CheckRun[]> {
  const canary = await loadCanary(deps.pool, canaryId);
  if (!canary) return [];
  const parsed = parsedSpec(canary);
  const info: CanaryInfo = { id: canary.id, name: canary.name, namespace: canary.namespace, labels: canary.labels, ...(await resolveCanaryEnv(deps.pool, canary.namespace, parsed.env, parsed.envFrom)) };
  const stored = await checksOf(deps.pool, canaryId);
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
  const junit = parsed.resultMode === JUNIT_RESULT_MODE;
  const toRun: RunnableCheck[] = junit ? parsed.checks.filter((definition) => !checkTypeOf(definition.type)?.push).map(fromDefinition) : stored.filter((check) => !checkTypeOf(check.type)?.push);
  const times = options.slot ? checkTimes(canary.id, options.slot.schedule, options.slot.at, toRun.length) : undefined;
  const timing = times ? { startOf: (check: RunnableCheck) => times.startOf(check.key), signal } : undefined;
  const limit = timing ? inFlight : limiter(CHECKS_AT_ONCE);
  // When a scheduled check runs next: its own instant in the next slot (after its run, for one that depends on others).
  const nextRuntime = (check: RunnableCheck, outcome: CheckRunOutcome): Date | undefined => {
    if (!times) return undefined;
    const own = dependsOn(check).length === 0 ? times.startOf(check.key) : outcome.result.time.getTime();
    return new Date(own + times.intervalMillis);
  };

  if (junit) {
    const combined = stored[0];
    if (!combined) return [];
    const runs = await runInOrder(toRun, { dependsOn, run: guardedRun, skip: async (_check, outcome) => outcome, limit, timing });
    // A slot cut short (the instance stopping) reports nothing rather than a report of some of its tests.
    if (runs.length < toRun.length) return [];
    const outcome = combinedJunitResult(canary.name, runs);
    await recordOutcome(deps, combined, info, outcome, times && options.slot ? new Date(options.slot.at.getTime() + times.intervalMillis) : undefined);
    note(combined, outcome);
    return [{ check: combined, outcome }];
  }

  let checks = toRun;
  if (options.onlyCheck) {
    const wanted = checks.find((check) => check.id === options.onlyCheck);
    checks = wanted ? withDependencies(checks, wanted, dependsOn) : [];
  }
  const record = async (check: RunnableCheck, outcome: CheckRunOutcome) => {
    await recordOutcome(deps, check, info, outcome, nextRuntime(check, outcome));
    note(check, outcome);
    return outcome;
  };
  return runInOrder(checks, {
    dependsOn,
    run: async (check, outputs) => {
      try {
        return await record(check, await guardedRun(check, outputs));
      } catch (error) {
        options.job?.error(error);
        throw error;
      }
    },
    skip: record,
    limit,
    timing,
    // A scheduled run's results are stored; holding them all until its last check ends would only cost memory.
    keep: !timing,
  });
}
