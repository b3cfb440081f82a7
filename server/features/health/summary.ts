import type pg from 'pg';
import { checkRows, type CheckRow } from './check-rows';
import { HistogramSum } from './histogram';
import { recentStatuses, type RecentStatuses } from './recent';
import { likePattern, parseSearch } from '../../platform/search';
import { bucketStart, negate, sumInto, totalsAt, totalsNow, type Now, type Terms, type Tier } from './totals';

/** Where the numbers of a range come from (docs/HEALTH.md): raw results for short ranges, rollups beyond. */
export type StatsSource = 'raw' | 'hourly' | 'daily';

const HOUR = 3_600_000;
const PERCENTILES = [0.5, 0.95, 0.97, 0.99];
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
  /** Each check of the page gets its newest this many results (`recent_statuses`); 0 or none: left out. */
  recent?: number | undefined;
}

/** What selects the checks and the range of a summary, without its order and page. */
export type SummaryFilter = Omit<SummaryRequest, 'sortBy' | 'sortDesc' | 'limit' | 'offset' | 'recent'>;

export const SORT_KEYS = ['name', 'canary_name', 'type', 'status', 'uptime', 'latency', 'last_runtime', 'last_transition_time', 'severity'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** One row of `checks_summary`: the check as it is (check-rows.ts), its uptime and its latency. */
export interface CheckSummary extends Omit<CheckRow, 'labels' | 'last_pass' | 'last_fail'> {
  labels: Record<string, string>;
  uptime: { passed: number; failed: number; last_pass: string | null; last_fail: string | null };
  latency: { p50: number | null; p95: number | null; p97: number | null; p99: number | null; rolling1h: number | null };
  /** Ours, when asked (`recent`): the check's newest results up to the range's end, newest first. */
  recent_statuses?: RecentStatuses;
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

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** True when a request keeps every check (no filter at all). */
function unfiltered(request: SummaryFilter): boolean {
  return (
    !request.query?.trim() &&
    (request.labels ?? []).length === 0 &&
    !request.health &&
    !request.hidePassing &&
    !request.agentId &&
    !request.canaryId &&
    request.checkIds === undefined
  );
}

/** The ids of the checks a request asks about, with every filter applied in SQL (all values bound). */
async function matchingIds(pool: pg.Pool, request: SummaryFilter): Promise<string[]> {
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
  const { rows } = await pool.query<{ id: string }>(`SELECT c.id FROM checks c JOIN canaries cn ON cn.id = c.canary_id WHERE ${where.join(' AND ')}`, params.values);
  return rows.map((row) => row.id);
}

/**
 * The checks a request asks about: their ids from the database, their rows from memory (refreshed by what
 * changed; read again when a check is newer than the rows read alongside the ids).
 */
async function matchingChecks(pool: pg.Pool, request: SummaryFilter): Promise<CheckRow[]> {
  const [ids, first] = await Promise.all([matchingIds(pool, request), checkRows(pool)]);
  const rows = ids.some((id) => !first.has(id)) ? await checkRows(pool) : first;
  const checks: CheckRow[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (row) checks.push(row);
  }
  return checks;
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

/** The totals of every check between `from` and `to`: the terms of the end minus those of the start. */
export async function rangeTotals(pool: pg.Pool, ids: readonly string[], from: Date, to: Date, source: StatsSource, now: Now): Promise<Terms> {
  if (ids.length === 0) return [];
  const tier = tierOf(source);
  const endsNow = to.getTime() >= now.at - 1000;
  const [end, start] = await Promise.all([endsNow ? [{ sign: 1 as const, totals: now.totals }] : totalsAt(pool, tier, ids, to, now), totalsAt(pool, tier, ids, from, now)]);
  return [...end, ...negate(start)];
}

function uptimeRatio(summary: CheckSummary): number {
  const total = summary.uptime.passed + summary.uptime.failed;
  return total === 0 ? -1 : summary.uptime.passed / total;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function compare(a: CheckSummary, b: CheckSummary, key: SortKey): number {
  switch (key) {
    case 'uptime':
      return uptimeRatio(a) - uptimeRatio(b);
    case 'latency':
      return (a.latency.p95 ?? -1) - (b.latency.p95 ?? -1);
    case 'last_runtime':
    case 'last_transition_time':
    case 'status':
      // ISO times (all UTC, one width) and statuses order as plain text.
      return byText(a[key] ?? '', b[key] ?? '');
    default:
      return collator.compare(String(a[key] ?? ''), String(b[key] ?? ''));
  }
}

/** rolling1h of many checks is computed for every check at most this often, and shared. */
const ROLLING_FRESH_MS = 30_000;
/** Requests about fewer checks than this compute their rolling1h themselves. */
const ROLLING_SHARED_FROM = 500;

interface RollingState {
  at: number;
  p95: ReadonlyMap<string, number | null>;
}
const rollingStates = new WeakMap<pg.Pool, { state: RollingState | undefined; computing: Promise<RollingState> | undefined }>();

async function computeRolling(pool: pg.Pool, ids: readonly string[], now: Now): Promise<RollingState> {
  const terms = await rangeTotals(pool, ids, new Date(now.at - HOUR), new Date(now.at), 'raw', now);
  const sum = new HistogramSum();
  const p95 = new Map<string, number | null>();
  for (const id of ids) {
    sumInto(terms, id, sum);
    p95.set(id, sum.quantiles([0.95])[0] ?? null);
  }
  return { at: now.at, p95 };
}

/**
 * Every check's p95 over the last hour (exact, as a 'raw' range). For a request about many checks, the
 * values of all checks are computed together and used for up to 30 seconds: the Health page's refreshes
 * then cost one set of them, whatever ranges they show.
 */
async function rollingP95(pool: pg.Pool, ids: readonly string[], now: Now): Promise<ReadonlyMap<string, number | null>> {
  if (ids.length < ROLLING_SHARED_FROM) return (await computeRolling(pool, ids, now)).p95;
  let shared = rollingStates.get(pool);
  if (!shared) rollingStates.set(pool, (shared = { state: undefined, computing: undefined }));
  if (shared.state && now.at - shared.state.at < ROLLING_FRESH_MS) return shared.state.p95;
  const holder = shared;
  holder.computing ??= computeRolling(pool, [...now.totals.keys()], now)
    .then((state) => (holder.state = state))
    .finally(() => {
      holder.computing = undefined;
    });
  return (await holder.computing).p95;
}

/** Every check a request matches, with its statistics over the range, unsorted (summarizeChecks). */
export interface Summarized {
  checks: CheckRow[];
  summaries: CheckSummary[];
  source: StatsSource;
  /** False when a single check's percentiles were computed exactly from its raw results. */
  estimate: boolean;
  /** True when the range ends now (the newest results may be kept in memory: recent.ts). */
  endsNow: boolean;
}

/**
 * Every check that matches a request, with its uptime and latency over the range (the summary's and the
 * Health page's rows). `onChecks` is called with the matching checks as soon as they are known, while the
 * statistics are still being read (the summary starts reading the newest results there).
 */
export async function summarizeChecks(pool: pg.Pool, request: SummaryFilter, onChecks?: (checks: CheckRow[], endsNow: boolean) => void): Promise<Summarized> {
  const checksRead = matchingChecks(pool, request);
  const now = await totalsNow(pool);
  const nowDate = new Date(now.at);
  const source = sourceFor(request.from, request.to, nowDate);
  // rolling1h: the p95 of the last hour; the range's own p95 when the range is the last hour.
  const hourAgo = new Date(now.at - HOUR);
  const lastHour = source === 'raw' && Math.abs(request.from.getTime() - hourAgo.getTime()) < 1000 && request.to.getTime() >= now.at - 1000;
  // Asked about every check: the statistics of every check that has results are read while the checks
  // are, rather than after them.
  const statistics = (ids: readonly string[]) => Promise.all([rangeTotals(pool, ids, request.from, request.to, source, now), lastHour ? undefined : rollingP95(pool, ids, now)]);
  const early = unfiltered(request) ? statistics([...now.totals.keys()]) : undefined;
  early?.catch(() => undefined); // awaited below; a failure of the checks' read must not leave it unhandled
  const checks = await checksRead;
  const ids = checks.map((check) => check.id);
  const endsNow = request.to.getTime() >= now.at - 1000;
  onChecks?.(checks, endsNow);
  const [stats, rolling] = await (early ?? statistics(ids));
  // A single check over raw results gets exact percentiles (its history is small enough to sort).
  const exact = source === 'raw' && ids.length === 1 ? await exactLatency(pool, ids[0] ?? '', request.from, request.to) : undefined;
  const sum = new HistogramSum();
  const summaries = checks.map((check): CheckSummary => {
    const own = sumInto(stats, check.id, sum);
    const [p50 = null, p95 = null, p97 = null, p99 = null] = exact ? [] : sum.quantiles(PERCENTILES);
    const rolling1h = rolling ? (rolling.get(check.id) ?? null) : p95;
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
      uptime: { passed: own.passed, failed: own.failed, last_pass: check.last_pass, last_fail: check.last_fail },
      latency: exact ?? { p50, p95, p97, p99, rolling1h },
      last_runtime: check.last_runtime,
      last_transition_time: check.last_transition_time,
      next_runtime: check.next_runtime,
      created_at: check.created_at,
      updated_at: check.updated_at,
    };
  });
  return { checks, summaries, source, estimate: exact === undefined, endsNow };
}

/**
 * GET /api/canary/api/summary: every check that matches, with its uptime and latency over the range, sorted
 * and paged. The range picks the source (sourceFor: exact up to a day, hourly rollups up to 7 days, daily
 * beyond) and the answer says which, with the range it counted.
 */
export async function checksSummary(pool: pg.Pool, request: SummaryRequest): Promise<SummaryAnswer> {
  const started = performance.now();
  let recentOfAll: Promise<Map<string, RecentStatuses>> | undefined;
  // The newest results of the page's checks: when the page holds every check, they are read while the
  // statistics are.
  const { checks, summaries, source, estimate, endsNow } = await summarizeChecks(pool, request, (matching, endsNow) => {
    if (!request.recent || request.offset !== 0 || matching.length > request.limit) return;
    recentOfAll = recentStatuses(pool, matching, request.to, request.recent, endsNow);
    recentOfAll.catch(() => undefined); // awaited below
  });
  const key = request.sortBy ?? 'name';
  summaries.sort((a, b) => (request.sortDesc ? -1 : 1) * compare(a, b, key) || collator.compare(a.name, b.name) || byText(a.id, b.id));
  const page = summaries.slice(request.offset, request.offset + request.limit);
  if (request.recent) {
    const rows = new Map(checks.map((check) => [check.id, check]));
    const recent = await (recentOfAll ?? recentStatuses(pool, page.flatMap((check) => rows.get(check.id) ?? []), request.to, request.recent, endsNow));
    for (const check of page) check.recent_statuses = recent.get(check.id) ?? { time: [], status: [] };
  }
  return {
    checks_summary: page,
    total: summaries.length,
    from: alignDown(request.from, source).toISOString(),
    to: request.to.toISOString(),
    source,
    estimate,
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
