import type pg from 'pg';
import { functions as registeredFunctions, relations as registeredRelations } from '../../../postgrest/relations';
import type { FunctionDef, RelationDef } from '../../../postgrest/registry';

/**
 * Issue 25's isolation probe: an intruder's credentials against every relation /api/db serves (taken from
 * the PostgREST registry, so a relation added there is probed without changing this file), with the ids of
 * another organization's rows. Used for organizations on separate backends and, with row-level security,
 * for organizations sharing one database.
 */

/** A row's key: the value of a one-column key, or each key column's value (`{ check_id, time }`). */
export type VictimKey = string | Readonly<Record<string, string>>;
export type VictimIds = Readonly<Record<string, readonly VictimKey[]>>;

export type ProbeMethod = 'GET' | 'PATCH' | 'DELETE' | 'RPC';

export interface Violation {
  relation: string;
  method: ProbeMethod;
  /** The path and query asked. */
  request: string;
  status: number;
  /** What leaked or changed, in words. */
  leaked: string;
}

export interface ProbeRequest {
  relation: string;
  method: ProbeMethod;
  request: string;
  status: number;
}

export interface ProbeOptions {
  /** The server (or front) to ask, without `/api/db`. */
  baseUrl: string;
  /** The intruder's credentials: `{ authorization: 'Bearer …' }` or `{ cookie: 'watchkeeper_session=…' }`. */
  headers: Readonly<Record<string, string>>;
  /** The victim's rows per relation (see collectIds). */
  victimIds: VictimIds;
  /** Other values of the victim's data (unique names, tags) that must appear in no answer at all. */
  victimStrings?: readonly string[];
  /** Defaults to all; a detection check may ask GET only. */
  methods?: readonly ProbeMethod[];
  /** Defaults to the product's registry. */
  registry?: { relations: readonly RelationDef[]; functions: readonly FunctionDef[] };
  /** Requests in flight at once (default 6). */
  concurrency?: number;
}

export interface ProbeResult {
  /** Every relation (and `rpc/<function>`) asked, in registry order. */
  probed: string[];
  /** The relations that had at least one victim id to try. */
  withVictimIds: string[];
  violations: Violation[];
  requests: ProbeRequest[];
}

/**
 * Functions under /api/db/rpc and the id each one takes. A function the registry adds must be listed here
 * (or in RPC_WITHOUT_IDS), otherwise the probe refuses to run rather than silently skip it.
 */
const RPC_ID_ARGS: Readonly<Record<string, { arg: string; relation: string }>> = {
  related_configs_recursive: { arg: 'config_id', relation: 'config_items' },
  get_parents_by_location: { arg: 'config_id', relation: 'config_items' },
  lookup_analysis_by_component: { arg: 'component_id', relation: 'components' },
  get_playbook_run_actions: { arg: 'run_id', relation: 'playbook_runs' },
};
const RPC_WITHOUT_IDS: ReadonlySet<string> = new Set();

/** The rows every database has by construction (the local agent): not an organization's data. */
const BUILT_IN_ID = '00000000-0000-0000-0000-000000000000';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The columns that identify a row of `relation` (its primary key), or none for aggregate relations. */
export function keyColumns(relation: RelationDef): readonly string[] {
  return relation.primaryKey ?? [];
}

function keyRecord(relation: RelationDef, key: VictimKey): Record<string, string> {
  const columns = keyColumns(relation);
  if (typeof key !== 'string') return { ...key };
  if (columns.length !== 1) throw new Error(`victim id ${key} of ${relation.name}: its key has ${columns.length} columns (${columns.join(', ')}), give an object of them`);
  return { [columns[0] ?? 'id']: key };
}

function filterQuery(key: Record<string, string>): string {
  return Object.entries(key)
    .map(([column, value]) => `${encodeURIComponent(column)}=eq.${encodeURIComponent(value)}`)
    .join('&');
}

/** Same instant or same text: timestamps come back as ISO text, the database gives them as `::text`. */
function sameValue(a: unknown, b: string): boolean {
  if (a === null || a === undefined) return false;
  const text = typeof a === 'string' ? a : JSON.stringify(a);
  if (text === b) return true;
  const x = Date.parse(text);
  const y = Date.parse(b);
  return /\d{4}-\d\d-\d\d/.test(b) && !Number.isNaN(x) && !Number.isNaN(y) && x === y && text.length > 10;
}

function rowMatches(row: unknown, key: Record<string, string>): boolean {
  if (!row || typeof row !== 'object') return false;
  const record = row as Record<string, unknown>;
  return Object.entries(key).every(([column, value]) => sameValue(record[column], value));
}

function describeKey(key: Record<string, string>): string {
  return Object.entries(key)
    .map(([column, value]) => `${column}=${value}`)
    .join(', ');
}

/** Harmless if it ever matched: a text column gets a note, a flag false, a live row's deleted_at stays null. */
function harmlessPatch(relation: RelationDef): Record<string, unknown> | undefined {
  const updatable = relation.updatable ?? [];
  const text = ['description', 'comment', 'title', 'value', 'icon', 'name'].find((column) => updatable.includes(column));
  if (text) return { [text]: 'isolation probe' };
  const flag = ['done'].find((column) => updatable.includes(column));
  if (flag) return { [flag]: false };
  const json = ['properties', 'labels'].find((column) => updatable.includes(column));
  if (json) return { [json]: {} };
  if (updatable.includes('last_reviewed_at')) return { last_reviewed_at: new Date().toISOString() };
  if (updatable.includes('deleted_at')) return { deleted_at: null };
  const first = updatable[0];
  return first ? { [first]: null } : undefined;
}

async function pool<T>(items: readonly T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await run(item);
    }
  });
  await Promise.all(workers);
}

/**
 * Asks, as the intruder, for each relation: the whole relation, then for each victim row a filtered GET,
 * a PATCH and a DELETE with `Prefer: return=representation`, and each RPC function that takes an id with
 * the victim's ids. A violation is an answer that carries a victim row or id (or a victim string), a write
 * that reports a changed row, or a 5xx.
 */
export async function probeEveryRelation(options: ProbeOptions): Promise<ProbeResult> {
  const { baseUrl, victimIds } = options;
  const relations = options.registry?.relations ?? registeredRelations;
  const fns = options.registry?.functions ?? registeredFunctions;
  const methods = new Set(options.methods ?? ['GET', 'PATCH', 'DELETE', 'RPC']);
  const byName = new Map(relations.map((relation) => [relation.name, relation]));
  for (const name of Object.keys(victimIds)) if (!byName.has(name)) throw new Error(`victim ids given for ${name}, which /api/db does not serve`);
  for (const fn of fns) {
    if (!RPC_ID_ARGS[fn.name] && !RPC_WITHOUT_IDS.has(fn.name)) throw new Error(`the isolation probe does not know which id /api/db/rpc/${fn.name} takes: add it to RPC_ID_ARGS in every-relation.ts`);
  }

  // Needles: ids that are UUIDs and the victim strings, looked for anywhere in any answer.
  const needles = new Set<string>(options.victimStrings ?? []);
  for (const keys of Object.values(victimIds)) {
    for (const key of keys) for (const value of typeof key === 'string' ? [key] : Object.values(key)) if (UUID.test(value)) needles.add(value.toLowerCase());
  }
  const needleIn = (body: string): string | undefined => {
    const lower = body.toLowerCase();
    for (const needle of needles) if (lower.includes(needle.toLowerCase())) return needle;
    return undefined;
  };

  const violations: Violation[] = [];
  const requests: ProbeRequest[] = [];
  const headers = { accept: 'application/json', ...options.headers };

  const ask = async (relation: string, method: ProbeMethod, path: string, init: RequestInit = {}): Promise<{ status: number; body: string; rows: unknown[] | undefined }> => {
    const httpMethod = method === 'RPC' ? 'GET' : method;
    let status = 0;
    let body = '';
    try {
      const response = await fetch(`${baseUrl}/api/db/${path}`, { ...init, method: httpMethod, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
      status = response.status;
      body = await response.text();
    } catch (error) {
      body = error instanceof Error ? error.message : String(error);
    }
    requests.push({ relation, method, request: path, status });
    if (status === 0 || status >= 500) violations.push({ relation, method, request: path, status, leaked: `no clean answer (HTTP ${status}): ${body.slice(0, 200)}` });
    let rows: unknown[] | undefined;
    if (status >= 200 && status < 300 && body) {
      try {
        const parsed: unknown = JSON.parse(body);
        rows = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        rows = undefined;
      }
    }
    const needle = status >= 200 && status < 300 ? needleIn(body) : undefined;
    if (needle) violations.push({ relation, method, request: path, status, leaked: `the answer names the victim's ${needle}` });
    return { status, body, rows };
  };

  const withVictimIds: string[] = [];
  const probed: string[] = [];
  const tasks: Array<() => Promise<void>> = [];

  for (const relation of relations) {
    probed.push(relation.name);
    const keys = (victimIds[relation.name] ?? []).map((key) => keyRecord(relation, key));
    if (keys.length > 0) withVictimIds.push(relation.name);
    if (methods.has('GET')) {
      tasks.push(async () => {
        const { rows } = await ask(relation.name, 'GET', relation.name);
        for (const key of keys) {
          if (rows?.some((row) => rowMatches(row, key))) violations.push({ relation: relation.name, method: 'GET', request: relation.name, status: 200, leaked: `the victim's row ${describeKey(key)}` });
        }
      });
    }
    for (const key of keys) {
      const filter = filterQuery(key);
      if (methods.has('GET')) {
        tasks.push(async () => {
          const path = `${relation.name}?${filter}`;
          const { status, rows } = await ask(relation.name, 'GET', path);
          if (rows && rows.length > 0 && status < 300) violations.push({ relation: relation.name, method: 'GET', request: path, status, leaked: `${rows.length} row(s) for the victim's ${describeKey(key)}` });
        });
      }
      if (methods.has('PATCH')) {
        tasks.push(async () => {
          const path = `${relation.name}?${filter}`;
          const body = harmlessPatch(relation) ?? { [keyColumns(relation)[0] ?? 'id']: Object.values(key)[0] ?? null };
          const { status, rows } = await ask(relation.name, 'PATCH', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', prefer: 'return=representation' } });
          if (status < 300 && (rows === undefined || rows.length > 0)) violations.push({ relation: relation.name, method: 'PATCH', request: path, status, leaked: rows ? `changed ${rows.length} victim row(s) ${describeKey(key)}` : `HTTP ${status} without the rows it changed` });
        });
      }
      if (methods.has('DELETE')) {
        tasks.push(async () => {
          const path = `${relation.name}?${filter}`;
          const { status, rows } = await ask(relation.name, 'DELETE', path, { headers: { prefer: 'return=representation' } });
          if (status < 300 && (rows === undefined || rows.length > 0)) violations.push({ relation: relation.name, method: 'DELETE', request: path, status, leaked: rows ? `deleted ${rows.length} victim row(s) ${describeKey(key)}` : `HTTP ${status} without the rows it deleted` });
        });
      }
    }
  }

  for (const fn of fns) {
    const target = RPC_ID_ARGS[fn.name];
    const name = `rpc/${fn.name}`;
    probed.push(name);
    if (!target || !methods.has('RPC')) continue;
    const relation = byName.get(target.relation);
    const ids = relation ? (victimIds[target.relation] ?? []).map((key) => keyRecord(relation, key)) : [];
    if (ids.length > 0) withVictimIds.push(name);
    for (const key of ids) {
      const id = key['id'] ?? Object.values(key)[0] ?? '';
      tasks.push(async () => {
        const path = `rpc/${fn.name}?${encodeURIComponent(target.arg)}=${encodeURIComponent(id)}`;
        const { status, rows } = await ask(name, 'RPC', path);
        if (status < 300 && rows && rows.some((row) => row !== null && !(Array.isArray(row) && row.length === 0))) {
          violations.push({ relation: name, method: 'RPC', request: path, status, leaked: `${rows.length} row(s) for the victim's ${target.arg} ${id}` });
        }
      });
    }
  }

  await pool(tasks, options.concurrency ?? 6, (task) => task());
  return { probed, withVictimIds, violations, requests };
}

/**
 * The victim's ids, per relation with a primary key: read from the victim's database (all rows, deleted
 * ones too) or through /api/db with the victim's own credentials. At most `limit` rows per relation; the
 * built-in rows every database has (the nil-UUID local agent) are left out.
 */
export async function collectIds(source: pg.Pool | { baseUrl: string; headers: Readonly<Record<string, string>> }, options: { limit?: number; relations?: readonly RelationDef[] } = {}): Promise<Record<string, VictimKey[]>> {
  const limit = options.limit ?? 3;
  const relations = options.relations ?? registeredRelations;
  const out: Record<string, VictimKey[]> = {};
  for (const relation of relations) {
    const columns = keyColumns(relation);
    if (columns.length === 0) continue;
    let rows: Array<Record<string, unknown>>;
    if ('query' in source) {
      const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
      const select = columns.map((column) => `${quote(column)}::text AS ${quote(column)}`).join(', ');
      rows = (await source.query<Record<string, unknown>>(`SELECT ${select} FROM ${quote(relation.source ?? relation.name)} LIMIT ${limit}`)).rows;
    } else {
      const response = await fetch(`${source.baseUrl}/api/db/${relation.name}?select=${columns.join(',')}&limit=${limit}`, { headers: { accept: 'application/json', ...source.headers } });
      if (!response.ok) throw new Error(`collectIds: GET /api/db/${relation.name} answered HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
      rows = (await response.json()) as Array<Record<string, unknown>>;
    }
    const keys: VictimKey[] = [];
    for (const row of rows) {
      const values = columns.map((column) => row[column]);
      if (values.some((value) => value === null || value === undefined || value === BUILT_IN_ID)) continue;
      const texts = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
      keys.push(columns.length === 1 ? (texts[0] ?? '') : Object.fromEntries(columns.map((column, i) => [column, texts[i] ?? ''])));
    }
    if (keys.length > 0) out[relation.name] = keys;
  }
  return out;
}
