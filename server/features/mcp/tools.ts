import { z } from 'zod';
import { allows } from '../../platform/auth/decide';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { secretStore } from '../../platform/secrets';
import { catalogChanges, changesBody } from '../catalog';
import { checksSummary } from '../health';
import { incidentWriteHooks } from '../incidents';
import { checkPlaybookSpec, createRun, exclusionOf, loadPlaybook, loadTarget, targetOf } from '../playbooks';
import { canaryTargets, configTarget, itemScoped, mayRead, offsetOf, page, paged, tool, uuid, type ToolDef } from './tools-common';
import { listChanges } from './tools-changes';
import { readLogs } from './tools-logs';
import { searchResourcesTool } from './tools-search';
import { queryView } from './tools-views';

export type { ToolDef };
export { encodeCursor } from './tools-common';

const READ_CATALOG = [{ resource: 'config_scrapers', action: 'read' }] as const;
const READ_CHECKS = [{ resource: 'canaries', action: 'read' }] as const;
const READ_INCIDENTS = [{ resource: 'incident', action: 'read' }] as const;
const READ_PLAYBOOKS = [{ resource: 'playbooks', action: 'read' }] as const;

const getConfig = tool({
  name: 'get_config',
  description: 'One config item: its fields, recent changes, open insights and related items. include_config adds its JSON (cut at 20,000 characters).',
  input: {
    id: uuid.describe('config item id'),
    include_config: z.boolean().default(false),
    changes: z.number().int().min(0).max(50).default(10).describe('how many recent changes (default 10)'),
  },
  needs: READ_CATALOG,
  readOnly: true,
  async run(ctx, actor, args) {
    const { rows } = await ctx.pool.query<Record<string, unknown> & { config: unknown; agent_id: string }>(
      `SELECT id, name, type, config_class, namespace, description, status, health, ready, labels, tags, agent_id, config, created_at, updated_at
       FROM config_items WHERE id = $1 AND deleted_at IS NULL`,
      [args.id],
    );
    const item = rows[0];
    if (!item) throw new AppError('not_found', `config item ${args.id} not found`);
    if (!mayRead(actor, 'config_scrapers', configTarget({ id: args.id, name: String(item.name ?? ''), type: String(item.type), tags: item.tags, agent_id: item.agent_id }))) {
      throw new AppError('forbidden', `you may not read config item ${args.id}`);
    }
    const { config, agent_id: _agent, ...fields } = item;
    const [changes, insights, related] = await Promise.all([
      args.changes === 0 ? undefined : catalogChanges(ctx.pool, { ...changesBody.parse({ id: args.id, page_size: args.changes }), from: undefined, to: undefined }),
      ctx.pool.query(
        `SELECT id, analyzer, analysis_type, severity, message, last_observed FROM config_analysis
         WHERE config_id = $1 AND status = 'open' ORDER BY last_observed DESC LIMIT 20`,
        [args.id],
      ),
      ctx.pool.query<{ id: string; name: string | null; type: string; namespace: string | null; tags: unknown; agent_id: string }>(
        `SELECT CASE WHEN r.config_id = $1 THEN 'outgoing' ELSE 'incoming' END AS direction, r.relation, c.id, c.name, c.type, c.health, c.namespace, c.tags, c.agent_id
         FROM config_relationships r JOIN config_items c ON c.id = CASE WHEN r.config_id = $1 THEN r.related_id ELSE r.config_id END
         WHERE (r.config_id = $1 OR r.related_id = $1) AND r.deleted_at IS NULL AND c.deleted_at IS NULL
         ORDER BY c.type, c.name LIMIT 50`,
        [args.id],
      ),
    ]);
    const json = args.include_config && config !== null ? JSON.stringify(config) : undefined;
    return {
      ...fields,
      ...(json ? { config: json.length > 20_000 ? `${json.slice(0, 20_000)}…` : json } : {}),
      changes: changes?.changes.map((change) => ({ id: change.id, change_type: change.change_type, severity: change.severity, source: change.source, summary: change.summary, count: change.count, created_at: change.created_at })),
      insights: insights.rows,
      // Related items the caller may not read are left out (spec §6: permissions on single items).
      relationships: related.rows
        .filter((row) => mayRead(actor, 'config_scrapers', configTarget(row)))
        .map(({ namespace: _n, tags: _t, agent_id: _a, ...row }: Record<string, unknown>) => ({ ...row, relation: row.relation === '' ? undefined : row.relation })),
    };
  },
});

function countBy(values: readonly string[]): Array<{ status: string; count: number }> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([status, count]) => ({ status, count }));
}

const healthSummary = tool({
  name: 'health_summary',
  description: 'Health checks: counts by status and a page of checks (status, uptime and p95 latency over the last 24 h). Filter by name words or health.',
  input: {
    query: z.string().max(500).optional().describe('words in the check name, or key=value (name, type, namespace, status, labels)'),
    health: z.enum(['healthy', 'unhealthy']).optional(),
    ...paged,
  },
  needs: READ_CHECKS,
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    const to = new Date();
    const from = new Date(to.getTime() - 24 * 3_600_000);
    // With permissions on single canaries, only the checks of canaries the caller may read are counted and listed.
    const readable = itemScoped(actor) ? [...(await canaryTargets(ctx.pool)).entries()].filter(([, target]) => mayRead(actor, 'canaries', target)) : undefined;
    const [summary, counts] = await Promise.all([
      checksSummary(ctx.pool, { from, to, query: args.query, health: args.health, limit: args.limit + 1, offset, sortBy: 'status', sortDesc: true, ...(readable ? { checkIds: readable.map(([id]) => id) } : {}) }),
      readable
        ? { rows: countBy(readable.map(([, target]) => target.status ?? 'unknown')) }
        : ctx.pool.query<{ status: string; count: number }>("SELECT coalesce(status, 'unknown') AS status, count(*)::int AS count FROM checks WHERE deleted_at IS NULL GROUP BY 1"),
    ]);
    const rows = summary.checks_summary.map((check) => ({
      id: check.id,
      name: check.name,
      type: check.type,
      canary: `${check.canary_namespace}/${check.canary_name}`,
      status: check.status ?? 'unknown',
      uptime: check.uptime.passed + check.uptime.failed > 0 ? `${((100 * check.uptime.passed) / (check.uptime.passed + check.uptime.failed)).toFixed(1)}%` : undefined,
      p95_ms: check.latency.p95 === null ? undefined : Math.round(check.latency.p95),
      last_runtime: check.last_runtime,
    }));
    return { counts: Object.fromEntries(counts.rows.map((row) => [row.status, row.count])), total: summary.total, ...page(rows, offset, args.limit) };
  },
});

const checkHistory = tool({
  name: 'get_check_history',
  description: "A check's recent results, newest first: time, pass, duration in ms, message, error.",
  input: { id: uuid.describe('check id'), ...paged },
  needs: READ_CHECKS,
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    const check = await ctx.pool.query<{ name: string; status: string | null }>('SELECT name, status FROM checks WHERE id = $1', [args.id]);
    if (!check.rows[0]) throw new AppError('not_found', `check ${args.id} not found`);
    if (!mayRead(actor, 'canaries', (await canaryTargets(ctx.pool, [args.id])).get(args.id))) throw new AppError('forbidden', `you may not read check ${args.id} (a permission on its canary denies it)`);
    const { rows } = await ctx.pool.query(
      'SELECT time, status AS pass, duration AS duration_ms, message, error FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT $2 OFFSET $3',
      [args.id, args.limit + 1, offset],
    );
    return { check: check.rows[0], ...page(rows, offset, args.limit) };
  },
});

const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
const INCIDENT_SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'critical', 'blocker'] as const;
const INCIDENT_TYPES = ['cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability'] as const;

const listIncidents = tool({
  name: 'list_incidents',
  description: 'Incidents, newest first: number (INC-n), title, status, severity, type. Filter by status, severity or words in the title.',
  input: {
    status: z.array(z.enum(INCIDENT_STATUSES)).optional().describe('default: all'),
    severity: z.array(z.enum(INCIDENT_SEVERITIES)).optional(),
    query: z.string().max(500).optional().describe('words in the title'),
    ...paged,
  },
  needs: READ_INCIDENTS,
  readOnly: true,
  async run(ctx, _actor, args) {
    const offset = offsetOf(args.cursor);
    const { rows } = await ctx.pool.query(
      `SELECT id, incident_id AS number, title, status, severity, type, created_at FROM incidents
       WHERE ($1::text[] IS NULL OR status = ANY($1)) AND ($2::text[] IS NULL OR severity = ANY($2))
         AND ($3::text IS NULL OR title ILIKE '%' || $3 || '%')
       ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`,
      [args.status ?? null, args.severity ?? null, args.query?.replace(/[\\%_]/g, (c) => `\\${c}`) ?? null, args.limit + 1, offset],
    );
    return page(rows, offset, args.limit);
  },
});

async function incidentIdOf(ctx: AppContext, ref: string): Promise<string> {
  const { rows } = await ctx.pool.query<{ id: string }>(
    `SELECT id FROM incidents WHERE ${/^[0-9a-f-]{36}$/i.test(ref) ? 'id = $1::uuid' : 'incident_id = upper($1)'}`,
    [ref],
  );
  const id = rows[0]?.id;
  if (!id) throw new AppError('not_found', `incident ${ref} not found`);
  return id;
}

const incidentRef = z.string().min(1).max(100).describe('incident id (uuid) or number (INC-42)');

const getIncident = tool({
  name: 'get_incident',
  description: 'One incident with its hypotheses (root → factor → solution), their evidence and the latest comments.',
  input: { id: incidentRef },
  needs: READ_INCIDENTS,
  readOnly: true,
  async run(ctx, _actor, args) {
    const id = await incidentIdOf(ctx, args.id);
    const [incident, hypotheses, evidences, comments] = await Promise.all([
      ctx.pool.query(
        `SELECT i.id, i.incident_id AS number, i.title, i.description, i.status, i.severity, i.type, i.created_at, i.resolved_at, c.name AS commander
         FROM incidents i LEFT JOIN people c ON c.id = i.commander_id WHERE i.id = $1`,
        [id],
      ),
      ctx.pool.query<{ id: string }>('SELECT id, parent_id, type, title, status FROM hypotheses WHERE incident_id = $1 ORDER BY created_at', [id]),
      ctx.pool.query<{ hypothesis_id: string }>(
        `SELECT e.id, e.hypothesis_id, e.type, e.description, e.check_id, e.config_id, e.component_id, e.definition_of_done, e.done
         FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = $1 ORDER BY e.created_at`,
        [id],
      ),
      ctx.pool.query(
        `SELECT c.comment, p.name AS author, c.created_at FROM comments c LEFT JOIN people p ON p.id = c.created_by
         WHERE c.incident_id = $1 ORDER BY c.created_at DESC LIMIT 20`,
        [id],
      ),
    ]);
    return {
      ...incident.rows[0],
      hypotheses: hypotheses.rows.map((h) => ({
        ...h,
        evidence: evidences.rows.filter((e) => e.hypothesis_id === h.id).map(({ hypothesis_id: _h, definition_of_done, done, ...e }: Record<string, unknown>) => ({ ...e, ...(definition_of_done ? { definition_of_done, done } : {}) })),
      })),
      comments: comments.rows,
    };
  },
});

const createIncident = tool({
  name: 'create_incident',
  description: 'Opens an incident (the caller is its commander). Answers its id and number.',
  input: {
    title: z.string().trim().min(1).max(500),
    description: z.string().max(10_000).optional(),
    type: z.enum(INCIDENT_TYPES).default('availability'),
    severity: z.enum(INCIDENT_SEVERITIES).default('low'),
  },
  needs: [{ resource: 'incident', action: 'create' }],
  readOnly: false,
  async run(ctx, actor, args) {
    return inTransaction(ctx.pool, async (client) => {
      await client.query("SELECT set_config('watchkeeper.actor', $1, true)", [actor.id]);
      const { rows } = await client.query<Record<string, unknown>>(
        'INSERT INTO incidents (title, description, type, severity, created_by, commander_id) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *',
        [args.title, args.description ?? null, args.type, args.severity, actor.id],
      );
      const row = rows[0];
      if (!row) throw new Error('incident insert returned no row');
      await incidentWriteHooks.incidents(client, { method: 'POST', changes: [{ old: null, new: row }], actor });
      return { id: row.id, number: row.incident_id, title: row.title, status: row.status, severity: row.severity };
    });
  },
});

const addComment = tool({
  name: 'add_comment',
  description: 'Adds a comment to an incident, as the token’s owner.',
  input: { incident: incidentRef, comment: z.string().trim().min(1).max(10_000) },
  needs: [{ resource: 'comments', action: 'create' }],
  readOnly: false,
  async run(ctx, actor, args) {
    const incidentId = await incidentIdOf(ctx, args.incident);
    return inTransaction(ctx.pool, async (client) => {
      await client.query("SELECT set_config('watchkeeper.actor', $1, true)", [actor.id]);
      const { rows } = await client.query<Record<string, unknown>>('INSERT INTO comments (incident_id, comment, created_by) VALUES ($1, $2, $3) RETURNING *', [incidentId, args.comment, actor.id]);
      const row = rows[0];
      if (!row) throw new Error('comment insert returned no row');
      await incidentWriteHooks.comments(client, { method: 'POST', changes: [{ old: null, new: row }], actor });
      return { id: row.id, incident_id: incidentId, created_at: row.created_at };
    });
  },
});

const targetArgs = {
  config_id: uuid.optional().describe('run on this config item'),
  component_id: uuid.optional().describe('run on this component'),
  check_id: uuid.optional().describe('run on this check'),
};

const listPlaybooks = tool({
  name: 'list_playbooks',
  description: 'Playbooks the caller may run, optionally only those runnable on one resource; with their parameters.',
  input: { ...targetArgs, ...paged },
  needs: READ_PLAYBOOKS,
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    const wanted = targetOf(args);
    const target = wanted ? await loadTarget(ctx.pool, wanted.kind, wanted.id) : undefined;
    if (wanted && !target) throw new AppError('not_found', `${wanted.kind} ${wanted.id} not found`);
    const { rows } = await ctx.pool.query<{ id: string; name: string; namespace: string; title: string | null; category: string; description: string | null; spec: Record<string, unknown> }>(
      "SELECT id, name, namespace, title, category, description, spec FROM playbooks WHERE deleted_at IS NULL ORDER BY category, coalesce(nullif(title, ''), name), id",
    );
    const out = [];
    for (const row of rows) {
      const checked = checkPlaybookSpec(row.spec).checked;
      if (!checked) continue;
      if (target && exclusionOf(checked.spec, target)) continue;
      if (!allows(actor, 'playbook_runs', 'playbook:run', { kind: 'playbook', id: row.id, name: row.name, namespace: row.namespace })) continue;
      out.push({
        id: row.id,
        name: `${row.namespace}/${row.name}`,
        title: row.title === '' ? undefined : row.title,
        category: row.category,
        description: row.description,
        parameters: (checked.spec.parameters ?? []).map((p) => ({ name: p.name, type: p.type ?? 'text', required: p.required, default: p.default, label: p.label })),
      });
    }
    return page(out.slice(offset, offset + args.limit + 1), offset, args.limit);
  },
});

const runPlaybook = tool({
  name: 'run_playbook',
  description: 'Runs a playbook (on a resource) with parameters; approval rules apply. Answers run_id and status; read it with get_playbook_run.',
  input: { id: uuid.describe('playbook id'), ...targetArgs, params: z.record(z.string(), z.string()).default({}) },
  needs: [{ resource: 'playbook_runs', action: 'playbook:run' }],
  readOnly: false,
  async run(ctx, actor, args) {
    const playbook = await loadPlaybook(ctx.pool, args.id);
    if (!allows(actor, 'playbook_runs', 'playbook:run', { kind: 'playbook', id: playbook.id, name: playbook.name, namespace: playbook.namespace })) {
      throw new AppError('forbidden', `running the playbook ${playbook.namespace}/${playbook.name} needs the playbook:run permission`);
    }
    const run = await inTransaction(ctx.pool, (client) =>
      createRun(client, secretStore(ctx.pool), { playbookId: args.id, config_id: args.config_id, component_id: args.component_id, check_id: args.check_id, params: args.params, actor, request: { trigger: 'manual', via: 'mcp' } }),
    );
    return { run_id: run.id, status: run.status };
  },
});

const getPlaybookRun = tool({
  name: 'get_playbook_run',
  description: 'A playbook run: status, times, error, and its actions (name, status, error).',
  input: { id: uuid.describe('run id') },
  needs: [{ resource: 'playbook_runs', action: 'read' }],
  readOnly: true,
  async run(ctx, _actor, args) {
    const { rows } = await ctx.pool.query(
      `SELECT r.id, p.namespace || '/' || p.name AS playbook, r.status, r.error, r.config_id, r.component_id, r.check_id, r.created_at, r.start_time, r.end_time
       FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
      [args.id],
    );
    if (!rows[0]) throw new AppError('not_found', `playbook run ${args.id} not found`);
    const actions = await ctx.pool.query('SELECT name, status, error, start_time, end_time FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count', [args.id]);
    return { ...rows[0], actions: actions.rows };
  },
});

/** The default tool list. */
export const tools: ToolDef[] = [searchResourcesTool, getConfig, listChanges, healthSummary, checkHistory, listIncidents, getIncident, createIncident, addComment, listPlaybooks, runPlaybook, getPlaybookRun, queryView, readLogs];
