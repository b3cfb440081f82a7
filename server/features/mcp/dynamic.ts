import type pg from 'pg';
import { z } from 'zod';
import { currentOrganization } from '../../platform/db/tenant';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { allows } from '../../platform/auth/decide';
import type { Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { secretStore } from '../../platform/secrets';
import { checkPlaybookSpec, createRun, loadPlaybook, type ParameterSpec, type PlaybookSpec } from '../playbooks';
import { answerView, checkViewSpec, columnsOf, loadView, mayReadView, tableRows, VariableProblem, variableSpecs } from '../views';
import { offsetOf, page } from './tools-common';

/**
 * Tools made from playbooks and views marked for MCP (`spec.mcp`, docs/MCP.md): `playbook_<name>` runs a
 * playbook as run_playbook does, `view_<name>` answers a view's columns and a page of rows. They are
 * read with one query and built once for 5 s; each is listed to a caller only when the caller may use it.
 */

/** What `spec.mcp` says: false/absent is not marked; true or an object (unless enabled: false) is. */
type McpMark = { title?: string; description?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };

export function markOf(value: unknown): McpMark | undefined {
  if (value === true) return {};
  if (!isRecord(value) || value.enabled === false) return undefined;
  const text = (key: string) => {
    const item = value[key];
    return typeof item === 'string' && item !== '' ? item : undefined;
  };
  const flag = (key: string) => {
    const item = value[key];
    return typeof item === 'boolean' ? item : undefined;
  };
  return {
    title: text('title'),
    description: text('description'),
    readOnlyHint: flag('readOnlyHint'),
    destructiveHint: flag('destructiveHint'),
    idempotentHint: flag('idempotentHint'),
    openWorldHint: flag('openWorldHint'),
  };
}

interface MarkedRow {
  kind: 'playbook' | 'view';
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  description: string | null;
  spec: Record<string, unknown>;
}

export interface DynamicTool {
  name: string;
  title?: string;
  description: string;
  input: z.ZodRawShape;
  annotations: ToolAnnotations;
  /** Whether this caller may use it (it is listed only then). */
  usableBy(actor: Actor): boolean;
  run(ctx: AppContext, actor: Actor, args: Record<string, unknown>): Promise<unknown>;
}

const CACHE_MS = 5_000;
const cache = new WeakMap<pg.Pool, Map<string, { at: number; tools: Promise<DynamicTool[]> }>>();

/** The marked playbooks and views, in one query. */
async function markedRows(pool: pg.Pool): Promise<MarkedRow[]> {
  const { rows } = await pool.query<MarkedRow>(
    `SELECT 'playbook' AS kind, id, name, namespace, nullif(title, '') AS title, nullif(description, '') AS description, spec
       FROM playbooks WHERE deleted_at IS NULL AND spec ? 'mcp' AND spec->'mcp' NOT IN ('false'::jsonb, 'null'::jsonb)
     UNION ALL
     SELECT 'view', id, name, namespace, nullif(title, ''), NULL, spec FROM views WHERE deleted_at IS NULL AND mcp
     ORDER BY 1, 4, 3, 2`,
  );
  return rows;
}

const MAX_NAME = 64;

function cleanName(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_NAME);
}

/** `<prefix>_<name>`; on a clash `<prefix>_<name>_<namespace>`, then a number; [a-zA-Z0-9_-], at most 64 characters. */
function uniqueName(taken: Set<string>, prefix: string, row: MarkedRow): string {
  const candidates = [cleanName(`${prefix}_${row.name}`), cleanName(`${prefix}_${row.name}_${row.namespace}`)];
  for (const candidate of candidates) {
    if (!taken.has(candidate)) return candidate;
  }
  const base = candidates[0] ?? prefix;
  for (let n = 2; ; n += 1) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

// -------------------------------------------------------------------------------------------------
// Playbooks

const uuid = z.string().uuid('must be a UUID');
const TARGETS = [
  { key: 'config_id', spec: 'configs', what: 'config item (from search_resources)' },
  { key: 'component_id', spec: 'components', what: 'component' },
  { key: 'check_id', spec: 'checks', what: 'health check (from health_summary)' },
] as const;

function optionValues(parameter: ParameterSpec): string[] | undefined {
  const options = parameter.properties?.options;
  if (!Array.isArray(options)) return undefined;
  const values = options.map((option: unknown) => (isRecord(option) ? option.value : option)).filter((value): value is string | number => typeof value === 'string' || typeof value === 'number').map(String);
  return values.length > 0 && values.length === options.length ? values : undefined;
}

function parameterSchema(parameter: ParameterSpec): z.ZodType {
  const words = [parameter.label, parameter.description].filter((word): word is string => Boolean(word)).join(': ');
  const type = parameter.type ?? 'text';
  let schema: z.ZodType;
  const options = type === 'list' ? optionValues(parameter) : undefined;
  if (type === 'checkbox') schema = z.enum(['true', 'false']);
  else if (options && options.length > 0) schema = z.enum(options);
  else schema = z.string().max(100_000);
  const hint = type === 'text' || type === 'checkbox' || options ? '' : ` (${type})`;
  const described = words || hint ? schema.describe(`${words}${hint}`.trim()) : schema;
  return parameter.required && parameter.default === undefined ? described : described.optional();
}

function playbookTool(name: string, row: MarkedRow, spec: PlaybookSpec, mark: McpMark): DynamicTool {
  const input: Record<string, z.ZodType> = {};
  const kinds = TARGETS.filter((target) => (spec[target.spec]?.length ?? 0) > 0);
  for (const target of kinds) {
    const field = uuid.describe(`the ${target.what} to run on`);
    input[target.key] = kinds.length === 1 ? field : field.optional();
  }
  const parameters = spec.parameters ?? [];
  if (parameters.length > 0) {
    const shape: Record<string, z.ZodType> = {};
    for (const parameter of parameters) shape[parameter.name] = parameterSchema(parameter);
    const params = z.object(shape).describe('the playbook’s parameters');
    input.params = parameters.some((parameter) => parameter.required && parameter.default === undefined) ? params : params.optional();
  }
  const what = mark.description ?? row.description ?? spec.description ?? row.title ?? row.name;
  const target = kinds.length === 0 ? '' : kinds.length === 1 ? ` on a ${kinds[0]?.what.replace(/ \(.*\)$/, '')}` : ' on a resource (one of the ids)';
  return {
    name,
    title: mark.title ?? row.title ?? undefined,
    description: `${what} — runs the playbook ${row.namespace}/${row.name}${target}; approval rules apply. Answers run_id and status (read it with get_playbook_run).`,
    input,
    annotations: { readOnlyHint: mark.readOnlyHint ?? false, destructiveHint: mark.destructiveHint, idempotentHint: mark.idempotentHint, openWorldHint: mark.openWorldHint },
    usableBy: (actor) => allows(actor, 'playbook_runs', 'playbook:run', { kind: 'playbook', id: row.id, name: row.name, namespace: row.namespace }),
    async run(ctx, actor, args) {
      const playbook = await loadPlaybook(ctx.pool, row.id);
      if (!allows(actor, 'playbook_runs', 'playbook:run', { kind: 'playbook', id: playbook.id, name: playbook.name, namespace: playbook.namespace })) {
        throw new AppError('forbidden', `running the playbook ${playbook.namespace}/${playbook.name} needs the playbook:run permission`);
      }
      const ids = { config_id: stringArg(args.config_id), component_id: stringArg(args.component_id), check_id: stringArg(args.check_id) };
      const params = isRecord(args.params) ? Object.fromEntries(Object.entries(args.params).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
      const run = await inTransaction(ctx.pool, (client) =>
        createRun(client, secretStore(ctx.pool), { playbookId: row.id, ...ids, params, actor, request: { trigger: 'manual', via: 'mcp', tool: name } }),
      );
      return { run_id: run.id, status: run.status };
    },
  };
}

function stringArg(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// -------------------------------------------------------------------------------------------------
// Views

const VIEW_PAGE_MAX = 100;
/** Argument names of a view tool itself; a variable of the same key is offered as var_<key>. */
const VIEW_ARGS = new Set(['limit', 'cursor']);

function viewTool(name: string, row: MarkedRow, mark: McpMark): DynamicTool {
  const spec = checkViewSpec(row.spec).checked?.spec;
  const variables = variableSpecs(row.spec);
  const argOf = (key: string) => (VIEW_ARGS.has(key) ? `var_${key}` : key);
  const input: Record<string, z.ZodType> = {
    limit: z.number().int().min(1).max(VIEW_PAGE_MAX).default(20).describe(`rows per page, 1–${VIEW_PAGE_MAX} (default 20)`),
    cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
  };
  for (const variable of variables) {
    const values = Array.isArray(variable.values) ? variable.values.map(String) : [];
    const base = values.length > 0 && values.length <= 50 ? z.enum(values) : z.string().max(1000);
    const label = typeof variable.label === 'string' && variable.label ? variable.label : variable.key;
    const fallback = variable.default === undefined ? '' : ` (default ${String(variable.default)})`;
    input[argOf(variable.key)] = base.optional().describe(`view variable: ${label}${fallback}`);
  }
  const columns = columnsOf(row.spec).map((column) => `${column.name} (${column.type})`);
  const what = mark.description ?? spec?.description ?? row.title ?? row.name;
  return {
    name,
    title: mark.title ?? row.title ?? undefined,
    description: `${what} — the view ${row.namespace}/${row.name}: its columns and a page of rows${columns.length > 0 ? `. Columns: ${columns.join(', ')}` : ''}.`,
    input,
    annotations: { readOnlyHint: true, openWorldHint: mark.openWorldHint },
    usableBy: (actor) => mayReadView(actor, row),
    async run(ctx, actor, args) {
      const view = await loadView(ctx.pool, row.id);
      if (!view || view.deleted_at) throw new AppError('not_found', `view ${row.namespace}/${row.name} not found`);
      if (!mayReadView(actor, view)) throw new AppError('forbidden', `reading the view ${view.namespace}/${view.name} needs the read permission on views`);
      const offset = offsetOf(args.cursor);
      const limit = typeof args.limit === 'number' ? args.limit : 20;
      const requested: Record<string, string> = {};
      for (const variable of variables) {
        const value = args[argOf(variable.key)];
        if (typeof value === 'string') requested[variable.key] = value;
      }
      let answer;
      try {
        answer = await answerView(ctx.pool, view, requested, false);
      } catch (error) {
        if (error instanceof VariableProblem) throw new AppError('invalid_request', error.message);
        throw error;
      }
      const rows = answer.table && answer.refreshedAt ? await tableRows(ctx.pool, answer.table, answer.requestFingerprint, view.spec, limit + 1, offset) : [];
      return {
        view: `${view.namespace}/${view.name}`,
        columns: answer.columns.map((column) => ({ name: column.name, type: column.type, ...(typeof column.description === 'string' ? { description: column.description } : {}) })),
        variables: answer.variables.length > 0 ? Object.fromEntries(answer.variables.map((variable) => [variable.key, variable.selected])) : undefined,
        total: answer.totalRows,
        ...page(rows, offset, limit),
        panels: answer.panels.length > 0 ? answer.panels.map((panel) => ({ name: panel.name, type: panel.type, rows: panel.rows, error: panel.error })) : undefined,
        stale: answer.stale || undefined,
        error: answer.error,
      };
    },
  };
}

// -------------------------------------------------------------------------------------------------

/**
 * The tools of every marked playbook and view (named over all of them, so a name does not depend on the
 * caller), built once and kept 5 s per pool: a new or changed spec.mcp shows within 5 s. `reserved`: the
 * default tools' names (the same on every call).
 */
export function dynamicTools(pool: pg.Pool, reserved: ReadonlySet<string>): Promise<DynamicTool[]> {
  // Per organization sharing the database (docs/HOSTED.md "Row-level security"): each has its own playbooks and views.
  let byOrganization = cache.get(pool);
  if (!byOrganization) {
    byOrganization = new Map();
    cache.set(pool, byOrganization);
  }
  const key = currentOrganization() ?? '';
  const hit = byOrganization.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.tools;
  const tools = buildTools(pool, reserved);
  byOrganization.set(key, { at: Date.now(), tools });
  // A failed read is not kept.
  const kept = byOrganization;
  tools.catch(() => kept.delete(key));
  return tools;
}

async function buildTools(pool: pg.Pool, reserved: ReadonlySet<string>): Promise<DynamicTool[]> {
  const rows = await markedRows(pool);
  const taken = new Set(reserved);
  const out: DynamicTool[] = [];
  for (const row of rows) {
    const mark = markOf(row.spec.mcp);
    if (!mark) continue;
    if (row.kind === 'playbook') {
      const checked = checkPlaybookSpec(row.spec).checked;
      if (!checked) continue;
      const name = uniqueName(taken, 'playbook', row);
      taken.add(name);
      out.push(playbookTool(name, row, checked.spec, mark));
    } else {
      const name = uniqueName(taken, 'view', row);
      taken.add(name);
      out.push(viewTool(name, row, mark));
    }
  }
  return out;
}
