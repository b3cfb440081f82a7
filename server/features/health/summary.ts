import type pg from 'pg';
import { quantile } from './histogram';
import { likePattern, parseSearch } from './search';
import { bucketStart, minus, totalsAt, totalsNow, type Now, type Tier, type Totals } from './totals';

/** Where the numbers of a range come from (docs/HEALTH.md): raw results for short ranges, rollups beyond. */
export type StatsSource = 'raw' | 'hourly' | 'daily';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SummaryRequest {
  from: Date;
  to: Date;
  query?: string | undefined;
  /** `key=value` keeps, `key!=value` drops (the tri-state label filter). */
  labels?: readonly string[] | undefined;
  health?: 'healthy' | 'unhealthy' | undefined;
  hidePassing?: boolean | undefined;
  agentId?: string | undefined;
  canaryId?: string | undefined;
  checkIds?: readonly string[] | undefined;
  sortBy?: SortKey | undefined;
  sortDesc?: boolean | undefined;
  limit: number;
  offset: number;
}

export const SORT_KEYS = ['name', 'canary_name', 'type', 'status', 'uptime', 'latency', 'last_runtime', 'last_transition_time', 'severity'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface CheckSummary {
  id: string;
  canary_id: string;
  canary_name: string;
  canary_namespace: string;
  agent_id: string;
  name: string;
  namespace: string;
  type: string;
  icon: string | null;
  description: string | null;
  endpoint: string | null;
  labels: Record<string, string>;
  owner: string | null;
  severity: string;
  status: 'healthy' | 'unhealthy' | null;
  transformed_from: string | null;
  uptime: { passed: number; failed: number; last_pass: string | null; last_fail: string | null };
  latency: { p50: number | null; p95: number | null; p97: number | null; p99: number | null; rolling1h: number | null };
  last_runtime: string | null;
  last_transition_time: string | null;
  next_runtime: string | null;
  created_at: string;
}

export interface SummaryAnswer {
  checks_summary: CheckSummary[];
  total: number;
  /** The range actually counted: rollups count whole hours or days. */
  from: string;
  to: string;
  source: StatsSource;
  /** Latency percentiles are read from histograms (within 5%). */
  estimate: boolean;
  /** Milliseconds the server spent. */
  duration: number;
}

interface CheckRow {
  id: string;
  canary_id: string;
  canary_name: string;
  canary_namespace: string;
  agent_id: string;
  name: string;
  namespace: string;
  type: string;
  icon: string | null;
  description: string | null;
  endpoint: string | null;
  labels: Record<string, string> | null;
  owner: string | null;
  severity: string;
  status: 'healthy' | 'unhealthy' | null;
  transformed_from: string | null;
  last_pass: Date | null;
  last_fail: Date | null;
  last_runtime: Date | null;
  last_transition_time: Date | null;
  next_runtime: Date | null;
  created_at: Date;
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The checks a request asks about, with every filter applied in SQL (all values bound). */
async function matchingChecks(pool: pg.Pool, request: SummaryRequest): Promise<CheckRow[]> {
  const params = new Params();
  const where = ['c.deleted_at IS NULL', 'cn.deleted_at IS NULL'];
  const search = parseSearch(request.query);
  const column = (field: string) =>
    ({ name: 'c.name', type: 'c.type', namespace: 'c.namespace', canary: 'cn.name', health: 'c.status', status: 'c.status', description: 'c.description', endpoint: 'c.endpoint', agent: 'c.agent_id::text', severity: 'c.severity', owner: 'c.owner' })[field];
  for (const term of search.terms) {
    const target = term.field === 'label' ? `c.labels ->> ${params.add(term.key ?? '')}` : column(term.field);
    if (!target) continue;
    const any = term.values.map((value) => `${target} ILIKE ${params.add(likePattern(value))}`).join(' OR ');
    where.push(term.negate ? `NOT coalesce(${any}, false)` : `(${any})`);
  }
  for (const word of search.words) {
    const pattern = params.add(`%${likePattern(word)}%`);
    where.push(`(c.name ILIKE ${pattern} OR c.description ILIKE ${pattern} OR c.endpoint ILIKE ${pattern} OR cn.name ILIKE ${pattern})`);
  }
  for (const label of request.labels ?? []) {
    const negate = label.includes('!=');
    const [key = '', value = ''] = label.split(negate ? '!=' : '=', 2);
    if (!key) continue;
    const condition = `c.labels ->> ${params.add(key)} = ${params.add(value)}`;
    where.push(negate ? `NOT coalesce(${condition}, false)` : condition);
  }
  if (request.health) where.push(`c.status = ${params.add(request.health)}`);
  if (request.hidePassing) where.push(`c.status IS DISTINCT FROM 'healthy'`);
  if (request.agentId) where.push(`c.agent_id = ${params.add(request.agentId)}`);
  if (request.canaryId) where.push(`c.canary_id = ${params.add(request.canaryId)}`);
  if (request.checkIds) where.push(`c.id = ANY(${params.add(request.checkIds)}::uuid[])`);
  const { rows } = await pool.query<CheckRow>(
    `SELECT c.id, c.canary_id, cn.name AS canary_name, cn.namespace AS canary_namespace, c.agent_id, c.name, c.namespace, c.type, c.icon,
            c.description, c.endpoint, c.labels, c.owner, c.severity, c.status, c.transformed_from, c.last_pass, c.last_fail, c.last_runtime,
            c.last_transition_time, c.next_runtime, c.created_at
       FROM checks c JOIN canaries cn ON cn.id = c.canary_id
      WHERE ${where.join(' AND ')}`,
    params.values,
  );
  return rows;
}

/**
 * Which totals answer a range: up to a day (starting within the last 47 hours) the 10-minute tier with the
 * raw results at the edges, exact to the second ('raw'); up to 7 days the hourly tier; beyond it the daily
 * tier (both count whole buckets from the start of the bucket holding `from`).
 */
export function sourceFor(from: Date, to: Date, now = new Date()): StatsSource {
  const span = to.getTime() - from.getTime();
  if (span <= DAY && from.getTime() >= now.getTime() - 47 * HOUR) return 'raw';
  return span <= 7 * DAY ? 'hourly' : 'daily';
}

function tierOf(source: StatsSource): Tier {
  return source === 'raw' ? '10m' : source;
}

/** Where counting starts: `from` itself, or the start of its hour or UTC day. */
export function alignDown(at: Date, source: StatsSource): Date {
  return source === 'raw' ? at : bucketStart(at, tierOf(source));
}

/** The totals of every check between `from` and `to`, as the difference of the totals at the two instants. */
export async function rangeTotals(pool: pg.Pool, ids: readonly string[], from: Date, to: Date, source: StatsSource, now: Now, nowDate: Date): Promise<Map<string, Totals>> {
  if (ids.length === 0) return new Map();
  const tier = tierOf(source);
  const endsNow = to.getTime() >= nowDate.getTime() - 1000;
  const [end, start] = await Promise.all([endsNow ? now.totals : totalsAt(pool, tier, ids, to, now), totalsAt(pool, tier, ids, from, now)]);
  const out = new Map<string, Totals>();
  for (const id of ids) out.set(id, minus(end.get(id), start.get(id)));
  return out;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function uptimeRatio(summary: CheckSummary): number {
  const total = summary.uptime.passed + summary.uptime.failed;
  return total === 0 ? -1 : summary.uptime.passed / total;
}

function compare(a: CheckSummary, b: CheckSummary, key: SortKey): number {
  switch (key) {
    case 'uptime':
      return uptimeRatio(a) - uptimeRatio(b);
    case 'latency':
      return (a.latency.p95 ?? -1) - (b.latency.p95 ?? -1);
    case 'last_runtime':
    case 'last_transition_time':
      return (a[key] ?? '').localeCompare(b[key] ?? '');
    case 'status':
      return (a.status ?? '').localeCompare(b.status ?? '');
    default:
      return String(a[key] ?? '').localeCompare(String(b[key] ?? ''), 'en', { sensitivity: 'base', numeric: true });
  }
}

/**
 * GET /api/canary/api/summary: every check that matches, with its uptime and latency over the range, sorted
 * and paged. The range picks the source (raw up to 3 h, hourly rollups up to 3 d, daily beyond) and the
 * answer says which, with the range it counted.
 */
export async function checksSummary(pool: pg.Pool, request: SummaryRequest): Promise<SummaryAnswer> {
  const started = performance.now();
  const nowDate = new Date();
  const source = sourceFor(request.from, request.to, nowDate);
  const checks = await matchingChecks(pool, request);
  const ids = checks.map((check) => check.id);
  const now = await totalsNow(pool, ids);
  const [stats, recent] = await Promise.all([
    rangeTotals(pool, ids, request.from, request.to, source, now, nowDate),
    // rolling1h: the last hour, exactly.
    rangeTotals(pool, ids, new Date(nowDate.getTime() - HOUR), nowDate, 'raw', now, nowDate),
  ]);
  // A single check over raw results gets exact percentiles (its history is small enough to sort).
  const exact = source === 'raw' && ids.length === 1 ? await exactLatency(pool, ids[0] ?? '', request.from, request.to) : undefined;
  const summaries = checks.map((check): CheckSummary => {
    const own = stats.get(check.id);
    const histogram = own?.histogram ?? new Map<number, number>();
    return {
      id: check.id,
      canary_id: check.canary_id,
      canary_name: check.canary_name,
      canary_namespace: check.canary_namespace,
      agent_id: check.agent_id,
      name: check.name,
      namespace: check.namespace,
      type: check.type,
      icon: check.icon,
      description: check.description,
      endpoint: check.endpoint,
      labels: check.labels ?? {},
      owner: check.owner,
      severity: check.severity,
      status: check.status,
      transformed_from: check.transformed_from,
      uptime: { passed: own?.passed ?? 0, failed: own?.failed ?? 0, last_pass: iso(check.last_pass), last_fail: iso(check.last_fail) },
      latency: exact ?? {
        p50: quantile(histogram, 0.5),
        p95: quantile(histogram, 0.95),
        p97: quantile(histogram, 0.97),
        p99: quantile(histogram, 0.99),
        rolling1h: quantile(recent.get(check.id)?.histogram ?? new Map(), 0.95),
      },
      last_runtime: iso(check.last_runtime),
      last_transition_time: iso(check.last_transition_time),
      next_runtime: iso(check.next_runtime),
      created_at: check.created_at.toISOString(),
    };
  });
  const key = request.sortBy ?? 'name';
  summaries.sort((a, b) => (request.sortDesc ? -1 : 1) * compare(a, b, key) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return {
    checks_summary: summaries.slice(request.offset, request.offset + request.limit),
    total: summaries.length,
    from: alignDown(request.from, source).toISOString(),
    to: request.to.toISOString(),
    source,
    estimate: exact === undefined,
    duration: Math.round(performance.now() - started),
  };
}

async function exactLatency(pool: pg.Pool, id: string, from: Date, to: Date): Promise<CheckSummary['latency']> {
  const { rows } = await pool.query<{ p: number[] | null; rolling: number | null }>(
    `SELECT percentile_disc(ARRAY[0.5, 0.95, 0.97, 0.99]) WITHIN GROUP (ORDER BY duration) AS p,
            (SELECT percentile_disc(0.95) WITHIN GROUP (ORDER BY duration) FROM check_statuses WHERE check_id = $1 AND time >= now() - interval '1 hour') AS rolling
       FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time <= $3`,
    [id, from, to],
  );
  const p = rows[0]?.p ?? [];
  return { p50: p[0] ?? null, p95: p[1] ?? null, p97: p[2] ?? null, p99: p[3] ?? null, rolling1h: rows[0]?.rolling ?? null };
}
