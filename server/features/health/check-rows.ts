import type pg from 'pg';
import { planRead, SNAPSHOT_XMIN, type ReadMark } from './incremental';

/** What a summary shows of a check itself (not its statistics), times as ISO text. */
export interface CheckRow {
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
  last_pass: string | null;
  last_fail: string | null;
  last_runtime: string | null;
  last_transition_time: string | null;
  next_runtime: string | null;
  created_at: string;
  updated_at: string;
}

/** The database formats times as `toISOString()` would (milliseconds, UTC): far cheaper there than here. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const COLUMNS = `c.id, c.canary_id, cn.name AS canary_name, cn.namespace AS canary_namespace, c.agent_id, c.name, c.namespace, c.type, c.icon,
  c.description, c.endpoint, c.labels, c.owner, c.severity, c.status, c.transformed_from,
  ${['last_pass', 'last_fail', 'last_runtime', 'last_transition_time', 'next_runtime', 'created_at', 'updated_at'].map((column) => `${iso(`c.${column}`)} AS ${column}`).join(', ')}`;

interface RowsState extends ReadMark {
  rows: Map<string, CheckRow>;
}

interface RowsCache {
  state: RowsState | undefined;
  /** The number of the read that made `state`: a read started earlier never replaces it. */
  readNumber: number;
  reads: number;
}

const caches = new WeakMap<pg.Pool, RowsCache>();

interface ReadRow extends Partial<CheckRow> {
  snapshot_xmin: string;
}

/**
 * Reads checks with their canary: all of them, or only those whose check or canary row was written since
 * the previous read (incremental.ts). Deleted checks are kept here: the caller knows which are live.
 */
async function readRows(pool: pg.Pool, previous: RowsState | undefined): Promise<RowsState> {
  const plan = planRead(previous);
  const { rows } = await pool.query<ReadRow>(
    `WITH s AS (SELECT ${SNAPSHOT_XMIN} AS snapshot_xmin)
     SELECT s.snapshot_xmin, x.* FROM s LEFT JOIN (
       SELECT ${COLUMNS} FROM checks c JOIN canaries cn ON cn.id = c.canary_id WHERE ${plan.written('c')} OR ${plan.written('cn')}
     ) x ON true`,
    plan.params,
  );
  const head = rows[0];
  if (!head) throw new Error('checks: the snapshot row is missing');
  // A new map each time: a request keeps the rows of its own read, whatever reads finish meanwhile.
  const state = new Map<string, CheckRow>(plan.base?.rows);
  for (const { snapshot_xmin: _, ...row } of rows) {
    if (isCheckRow(row)) state.set(row.id, row);
  }
  return { rows: state, ...plan.mark(head.snapshot_xmin) };
}

function isCheckRow(row: Partial<CheckRow>): row is CheckRow {
  return typeof row.id === 'string' && typeof row.created_at === 'string';
}

/**
 * Every check's row as of now (every write committed before the call is seen), kept in memory per database
 * and refreshed by what changed: a summary of ten thousand checks then reads a few changed rows instead
 * of all of them.
 */
export async function checkRows(pool: pg.Pool): Promise<ReadonlyMap<string, CheckRow>> {
  let cache = caches.get(pool);
  if (!cache) caches.set(pool, (cache = { state: undefined, readNumber: 0, reads: 0 }));
  cache.reads += 1;
  const number = cache.reads;
  const state = await readRows(pool, cache.state);
  if (number > cache.readNumber) {
    cache.state = state;
    cache.readNumber = number;
  }
  return state.rows;
}
