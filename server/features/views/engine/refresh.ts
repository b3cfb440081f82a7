import { capabilityUses, runRefusal } from '../../../platform/auth/capabilities';
import type pg from 'pg';
import { randomUUID } from 'node:crypto';
import { isRecord } from '../../../platform/errors';
import { evaluateCel } from '../../../platform/expressions';
import { parseDuration } from '../../../platform/units';
import { plan, tableTypes, writeRows } from './pushdown';
import { localStatement, QueryFailed, runQuery, type Row } from './queries';
import { loadRows, readerReady, resetSession, runStatements, selectRows, shareTable } from './sandbox';
import { coerce, ensureTable, quoteIdent, replaceRows, storedColumns, viewTableName, type EngineColumn } from './table';
import { templated, type ResolvedVariable } from './variables';

/**
 * Materialisation: a view's queries run (templated with the variables), merged (spec.merge, SQL over the
 * results, else the one query's rows, else every query's rows one after another), mapped column by column
 * (spec.mapping CEL over `row`, else the field of the column's name), and written to the view's table in
 * one transaction with the panels' results. One instance at a time refreshes a (view, fingerprint): a
 * lease in view_refreshes.
 */

export interface ViewRow {
  id: string;
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
  updated_at: Date;
  deleted_at: Date | null;
  /** Who last saved the spec from the console or the API (null: a file): its capabilities are checked at each refresh. */
  updated_by?: string | null;
}

export interface CacheRules {
  maxAgeMs: number;
  minAgeMs: number;
  refreshTimeoutMs: number;
}

export interface RefreshRow {
  view_id: string;
  request_fingerprint: string;
  refreshed_at: Date | null;
  attempted_at: Date | null;
  duration_ms: number | null;
  row_count: number | null;
  error: string | null;
  panels: Array<{ name: string; rows: Row[]; error?: string }>;
  lease_owner: string | null;
  lease_until: Date | null;
}

const INSTANCE = `views-${randomUUID()}`;
/** A refresh never runs longer: its lease then lapses and another instance may take it. */
export const REFRESH_LIMIT_MS = 120_000;

export async function loadView(db: Pick<pg.Pool, 'query'>, id: string): Promise<ViewRow | undefined> {
  const { rows } = await db.query<ViewRow>('SELECT id, name, namespace, spec, updated_at, deleted_at, updated_by FROM views WHERE id = $1', [id]);
  return rows[0];
}

export function columnsOf(spec: Record<string, unknown>): EngineColumn[] {
  const columns = Array.isArray(spec.columns) ? spec.columns : [];
  return columns.filter((column): column is EngineColumn => isRecord(column) && typeof column.name === 'string' && column.name !== '').map((column) => ({ ...column, type: typeof column.type === 'string' ? column.type : 'string' }));
}

/** display.table.sort's column (without its + or -). */
export function sortColumnOf(spec: Record<string, unknown>): string | undefined {
  const display = isRecord(spec.display) ? spec.display : {};
  const sort = isRecord(display.table) && typeof display.table.sort === 'string' ? display.table.sort : undefined;
  return sort?.replace(/^[+-]/, '');
}

export function hasTable(spec: Record<string, unknown>): boolean {
  return storedColumns(columnsOf(spec)).some((column) => column.primaryKey);
}

function durationOf(value: unknown, fallback: number): number {
  return typeof value === 'string' ? (parseDuration(value) ?? fallback) : fallback;
}

/** spec.cache with Mission Control's defaults: maxAge 15m, minAge 10s, refreshTimeout 5s. */
export function cacheRules(spec: Record<string, unknown>): CacheRules {
  const cache = isRecord(spec.cache) ? spec.cache : {};
  return { maxAgeMs: durationOf(cache.maxAge, 15 * 60_000), minAgeMs: durationOf(cache.minAge, 10_000), refreshTimeoutMs: durationOf(cache.refreshTimeout, 5_000) };
}

export async function refreshRow(db: Pick<pg.Pool, 'query'>, viewId: string, fingerprint: string): Promise<RefreshRow | undefined> {
  const { rows } = await db.query<RefreshRow>('SELECT * FROM view_refreshes WHERE view_id = $1 AND request_fingerprint = $2', [viewId, fingerprint]);
  return rows[0];
}

const PATH = /^row(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/** One mapping: a plain `row.a.b` is read directly (the same value CEL gives), anything else is CEL. */
function mapper(column: string, expression: string): (row: Row, vars: Record<string, string>) => unknown {
  const text = expression.trim();
  if (PATH.test(text)) {
    const keys = text.split('.').slice(1);
    return (row) => {
      let current: unknown = row;
      for (const key of keys) {
        if (!isRecord(current)) return null;
        current = current[key];
      }
      return current ?? null;
    };
  }
  return (row, vars) => {
    try {
      return evaluateCel(`mapping.${column}`, text, { row, var: vars });
    } catch (error) {
      // A missing field is an empty cell, as a missing key read directly is.
      if (error instanceof Error && /No such key/i.test(error.message)) return null;
      throw error;
    }
  };
}

/** Rows as the view's columns hold them: mapped, then coerced to each column's type. */
export function mapRows(spec: Record<string, unknown>, rows: readonly Row[], vars: Record<string, string>): Row[] {
  const columns = storedColumns(columnsOf(spec));
  const mapping = isRecord(spec.mapping) ? spec.mapping : {};
  const mappers = columns.map((column) => {
    const expression = mapping[column.name];
    return { column, map: typeof expression === 'string' && expression.trim() !== '' ? mapper(column.name, expression) : (row: Row) => row[column.name] ?? null };
  });
  return rows.map((row) => {
    const out: Row = {};
    for (const { column, map } of mappers) out[column.name] = coerce(column.type, map(row, vars));
    return out;
  });
}

/** Whether any SQL or mapping of the spec reads an item's `config` (the scraped document). */
function wantsConfig(spec: Record<string, unknown>): boolean {
  const texts = [JSON.stringify(spec.mapping ?? {}), String(spec.merge ?? ''), JSON.stringify(spec.panels ?? [])];
  return texts.some((text) => /\bconfig\b(?!_)/.test(text.replace(/"config[A-Za-z]*"\s*:/g, '')));
}

export interface RefreshOutcome {
  rowCount: number;
  durationMs: number;
  error?: string;
}

/** Runs the view for one variable set and stores rows and panels. Never throws for the view's own faults. */
async function materialise(pool: pg.Pool, view: ViewRow, variables: readonly ResolvedVariable[], fingerprint: string, signal: AbortSignal): Promise<RefreshOutcome> {
  const started = Date.now();
  const spec = view.spec;
  const vars = Object.fromEntries(variables.map((variable) => [variable.key, variable.selected]));
  const table = viewTableName(view.namespace, view.name);
  const columns = columnsOf(spec);
  const withTable = hasTable(spec);
  try {
    // Capabilities (docs/SECURITY.md): sql queries and connections run only while the view's last author holds them.
    const refusal = await runRefusal(pool, view.updated_by, capabilityUses(spec), view.namespace);
    if (refusal) throw new QueryFailed(refusal.message);
    const queries = isRecord(spec.queries) ? spec.queries : {};
    const context = { pool, namespace: view.namespace, signal, wantsConfig: wantsConfig(spec) };
    const names = Object.keys(queries);
    // configs and changes run inside the database (their rows go straight into the TEMP tables);
    // the others (sql, http, prometheus, other views) run here first.
    const results = await Promise.all(
      names.map(async (name) => {
        const query = queries[name];
        if (!isRecord(query)) throw new QueryFailed(`queries.${name}: must be a mapping`);
        const resolved = templated(query, vars, `queries.${name}`);
        const local = localStatement(resolved, context.wantsConfig);
        const rows = local ? undefined : await runQuery(context, name, resolved);
        return [name, { rows, local, columns: isRecord(query.columns) ? (query.columns as Record<string, string>) : undefined }] as const;
      }),
    );
    const panels = Array.isArray(spec.panels) ? spec.panels.filter(isRecord) : [];
    const merge = typeof spec.merge === 'string' && spec.merge.trim() !== '' ? spec.merge : undefined;
    const statements = [...(merge && withTable ? [merge] : []), ...panels.map((panel) => String(panel.query ?? ''))];
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const problem = await readerReady(client);
      for (const [name, result] of results) {
        if (result.local) {
          try {
            await selectRows(client, name, result.local);
          } catch (error) {
            throw new QueryFailed(`queries.${name}: ${error instanceof Error ? error.message : String(error)}`);
          }
        } else await loadRows(client, name, { rows: result.rows ?? [], columns: result.columns });
        await shareTable(client, name, problem === undefined);
      }
      const outcomes = problem ? statements.map(() => ({ rows: [], error: problem })) : await runStatements(client, statements);
      let written = 0;
      if (withTable) {
        await ensureTable(client, view.id, table, columns, sortColumnOf(spec));
        const only = results.length === 1 && !merge ? results[0] : undefined;
        const pushdown = only?.[1].local ? plan(columns, isRecord(spec.mapping) ? spec.mapping : {}, await tableTypes(client, only[0]), (column, expression) => {
          const map = mapper(column, expression);
          return (row) => map(row, vars);
        }) : undefined;
        if (only && pushdown) {
          await client.query(`DELETE FROM public.${quoteIdent(table)} WHERE request_fingerprint = $1`, [fingerprint]);
          written = await writeRows(client, table, only[0], columns, fingerprint, pushdown);
        } else {
          let base: Row[];
          if (merge) {
            const merged = outcomes.shift();
            if (merged?.error) throw new QueryFailed(`merge: ${merged.error}`);
            base = merged?.rows ?? [];
          } else {
            base = [];
            for (const [name, result] of results) base.push(...(result.rows ?? (await client.query<Row>(`SELECT * FROM pg_temp.${quoteIdent(name)}`)).rows));
          }
          written = (await replaceRows(client, table, columns, fingerprint, mapRows(spec, base, vars))).written;
        }
      }
      const panelResults = panels.map((panel, i) => ({ name: String(panel.name ?? `panel ${i + 1}`), rows: outcomes[i]?.rows ?? [], ...(outcomes[i]?.error ? { error: outcomes[i]?.error } : {}) }));
      const duration = Date.now() - started;
      await client.query(
        `INSERT INTO public.view_refreshes (view_id, request_fingerprint, variables, refreshed_at, attempted_at, duration_ms, row_count, error, panels, lease_owner, lease_until)
         VALUES ($1, $2, $3, now(), now(), $4, $5, NULL, $6, NULL, NULL)
         ON CONFLICT (view_id, request_fingerprint) DO UPDATE SET variables = EXCLUDED.variables, refreshed_at = now(), attempted_at = now(), duration_ms = EXCLUDED.duration_ms,
           row_count = EXCLUDED.row_count, error = NULL, panels = EXCLUDED.panels, lease_owner = NULL, lease_until = NULL`,
        [view.id, fingerprint, JSON.stringify(vars), duration, written, JSON.stringify(panelResults)],
      );
      await client.query('COMMIT');
      if (withTable) vacuumLater(pool, table);
      return { rowCount: written, durationMs: duration };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // Whatever view SQL left on the session goes before the connection returns to the pool (else it is destroyed).
      const clean = !broken && (await resetSession(client));
      client.release(!clean);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const duration = Date.now() - started;
    await pool.query(
      `INSERT INTO view_refreshes (view_id, request_fingerprint, variables, attempted_at, duration_ms, error) VALUES ($1, $2, $3, now(), $4, $5)
       ON CONFLICT (view_id, request_fingerprint) DO UPDATE SET attempted_at = now(), duration_ms = EXCLUDED.duration_ms, error = EXCLUDED.error, lease_owner = NULL, lease_until = NULL`,
      [view.id, fingerprint, JSON.stringify(vars), duration, message],
    );
    return { rowCount: 0, durationMs: duration, error: message };
  }
}

const vacuuming = new Set<string>();

/**
 * After a refresh, in the background: VACUUM ANALYZE of the view's table, so pages and counts by
 * fingerprint are planned on its real contents and read from its indexes alone (visibility map).
 */
function vacuumLater(pool: pg.Pool, table: string): void {
  if (vacuuming.has(table)) return;
  vacuuming.add(table);
  setTimeout(() => {
    pool
      .query(`VACUUM (ANALYZE) public.${quoteIdent(table)}`)
      .catch(() => undefined)
      .finally(() => vacuuming.delete(table));
  }, 0).unref?.();
}

/** Takes the lease of a (view, fingerprint): false when another refresh holds it. */
async function claim(pool: pg.Pool, viewId: string, fingerprint: string, vars: Record<string, string>): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO view_refreshes (view_id, request_fingerprint, variables, lease_owner, lease_until) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
     ON CONFLICT (view_id, request_fingerprint) DO UPDATE SET lease_owner = EXCLUDED.lease_owner, lease_until = EXCLUDED.lease_until
     WHERE view_refreshes.lease_until IS NULL OR view_refreshes.lease_until < now()`,
    [viewId, fingerprint, JSON.stringify(vars), INSTANCE, REFRESH_LIMIT_MS],
  );
  return (rowCount ?? 0) > 0;
}

const inFlight = new Map<string, Promise<RefreshOutcome | undefined>>();

/**
 * Refreshes a (view, fingerprint) unless a refresh of it is already under way (here: the same promise;
 * elsewhere: waits for that instance's lease to end). Resolves when the rows are written.
 */
export function refresh(pool: pg.Pool, view: ViewRow, variables: readonly ResolvedVariable[], fingerprint: string): Promise<RefreshOutcome | undefined> {
  const key = `${view.id}:${fingerprint}`;
  const running = inFlight.get(key);
  if (running) return running;
  const vars = Object.fromEntries(variables.map((variable) => [variable.key, variable.selected]));
  const work = (async () => {
    if (!(await claim(pool, view.id, fingerprint, vars))) {
      // Another instance refreshes it: wait for its lease to end.
      const until = Date.now() + REFRESH_LIMIT_MS;
      while (Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const row = await refreshRow(pool, view.id, fingerprint);
        if (!row?.lease_until || row.lease_until.getTime() < Date.now()) return undefined;
      }
      return undefined;
    }
    return materialise(pool, view, variables, fingerprint, AbortSignal.timeout(REFRESH_LIMIT_MS));
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}
