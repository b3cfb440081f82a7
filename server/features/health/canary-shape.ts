import type { CheckSummary, SummaryAnswer } from './summary';

/**
 * canary-checker's answer shapes (docs/API.md, canary-checker endpoints): scripts and dashboards written
 * against canary-checker read our answers unchanged. Its field names are kept as it spells them (snake_case
 * in some answers, camelCase in others); where we know more, fields are added beside them, never renamed.
 * A field canary-checker leaves out when empty is left out here too, except in the summary's checks, where
 * the console reads null as "none" (docs/API.md says which).
 */

/** canary-checker's `runnerName` (its --name flag, default "local"): this instance. */
export const RUNNER_NAME = 'local';

/** canary-checker's latency: p99, p97 and p95 when known, rolling1h always (0 when unknown); ours adds p50. */
export interface UpstreamLatency {
  p50?: number;
  p95?: number;
  p97?: number;
  p99?: number;
  rolling1h: number;
}

type OurLatency = CheckSummary['latency'];

export function upstreamLatency(latency: OurLatency | undefined): UpstreamLatency {
  const shaped: UpstreamLatency = { rolling1h: latency?.rolling1h ?? 0 };
  for (const key of ['p50', 'p95', 'p97', 'p99'] as const) {
    const value = latency?.[key];
    if (typeof value === 'number') shaped[key] = value;
  }
  return shaped;
}

/** A check of the summary: `status` is a string ('' before the first result) and `rolling1h` a number. */
export type SummaryCheck = Omit<CheckSummary, 'status' | 'latency'> & { status: NonNullable<CheckSummary['status']> | ''; latency: Omit<OurLatency, 'rolling1h'> & { rolling1h: number } };

export type SummaryShape = Omit<SummaryAnswer, 'checks_summary'> & { runnerName: string; checks_summary: SummaryCheck[] };

export function summaryCheck(check: CheckSummary): SummaryCheck {
  return { ...check, status: check.status ?? '', latency: { ...check.latency, rolling1h: check.latency.rolling1h ?? 0 } };
}

/** POST/GET /api/canary/api/summary: canary-checker's SummaryResponse with ours (total, range, source). */
export function summaryShape(answer: SummaryAnswer): SummaryShape {
  return { runnerName: RUNNER_NAME, ...answer, checks_summary: answer.checks_summary.map(summaryCheck) };
}

/** One result as canary-checker's `/api` lists them (its CheckStatus). */
export interface LegacyStatus {
  status: boolean;
  invalid?: boolean;
  time: string;
  duration: number;
  message?: string;
  error?: string;
}

/** A check as canary-checker's `/api` lists it (its Check: camelCase times, `checkStatuses` newest first). */
export interface LegacyCheck {
  id: string;
  canary_id: string;
  type: string;
  name: string;
  canary_name: string;
  namespace: string;
  labels: Record<string, string>;
  description?: string;
  status?: string;
  uptime: { passed: number; failed: number; last_pass?: string; last_fail?: string };
  latency: UpstreamLatency;
  checkStatuses: LegacyStatus[];
  owner?: string;
  severity?: string;
  icon?: string;
  transformed?: boolean;
  lastRuntime?: string;
  lastTransitionTime?: string;
  nextRuntime?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** The object without its null, undefined and empty-text fields (Go's omitempty). */
function present<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], null | undefined> } {
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== null && field !== undefined && field !== '' && field !== false) kept[key] = field;
  return kept as { [K in keyof T]?: Exclude<T[K], null | undefined> };
}

export function legacyCheck(check: CheckSummary, statuses: LegacyStatus[]): LegacyCheck {
  return {
    id: check.id,
    canary_id: check.canary_id,
    type: check.type,
    name: check.name,
    canary_name: check.canary_name,
    namespace: check.namespace,
    labels: check.labels,
    uptime: { passed: check.uptime.passed, failed: check.uptime.failed, ...present({ last_pass: check.uptime.last_pass, last_fail: check.uptime.last_fail }) },
    latency: upstreamLatency(check.latency),
    checkStatuses: statuses,
    ...present({
      description: check.description,
      status: check.status,
      owner: check.owner,
      severity: check.severity,
      icon: check.icon,
      transformed: check.transformed_from !== null,
      lastRuntime: check.last_runtime,
      lastTransitionTime: check.last_transition_time,
      nextRuntime: check.next_runtime,
      createdAt: check.created_at,
      updatedAt: check.updated_at,
    }),
  };
}

export function legacyStatus(row: { time: Date; status: boolean; invalid: boolean; duration: number; message: string | null; error: string | null }, withMessages: boolean): LegacyStatus {
  return {
    status: row.status,
    time: row.time.toISOString(),
    duration: row.duration,
    ...present({ invalid: row.invalid, ...(withMessages ? { message: row.message, error: row.error } : {}) }),
  };
}

/** GET /api/canary/about: canary-checker's {Timestamp, Version}, with our name and check types. */
export function aboutShape(version: string, checkTypes: unknown[]): Record<string, unknown> {
  return { Timestamp: new Date().toISOString(), Version: version, name: 'watchkeeper', version, check_types: checkTypes };
}

export interface RunShapeInput {
  check: { id: string; name: string; namespace: string; description: string | null; labels: Record<string, string> | null };
  result: { pass: boolean; invalid?: boolean | undefined; time: Date; duration: number; message?: string | null | undefined; error?: string | null | undefined; details?: unknown };
}

/**
 * POST /api/canary/run/check/{id}: canary-checker's CheckResult (name, start, pass, invalid, duration,
 * message, error, detail, labels, namespace, description, CanaryResult), with ours (check_id, status, time,
 * details).
 */
export function runShape({ check, result }: RunShapeInput): Record<string, unknown> {
  return {
    name: check.name,
    start: result.time.toISOString(),
    pass: result.pass,
    duration: result.duration,
    namespace: check.namespace,
    CanaryResult: [],
    ...present({
      invalid: result.invalid,
      message: result.message,
      error: result.error,
      description: check.description,
      detail: result.details,
      labels: check.labels && Object.keys(check.labels).length > 0 ? check.labels : undefined,
    }),
    check_id: check.id,
    status: result.pass ? 'healthy' : 'unhealthy',
    time: result.time.toISOString(),
    ...(result.details === undefined ? {} : { details: result.details }),
  };
}
