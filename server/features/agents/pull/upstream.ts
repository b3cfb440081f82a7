import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context';
import { isRecord } from '../../../platform/errors';
import { AppError } from '../../../platform/http/errors';
import { route } from '../../../platform/http/route';
import { inTransaction } from '../../../platform/jobs/db';
import { secretStore } from '../../../platform/secrets';
import { SecretValues } from '../../../platform/secrets/redact';
import { AGENT_INPUT_VERSION, isAgentActionInput, RUNS_CHANNEL, type AgentActionInput } from '../../playbooks';
import { PushRefused } from '../push';
import { agentOfRequest } from '../service';

/**
 * Pull down (docs/AGENTS.md "Resources and playbook actions from upstream"), the upstream side:
 * GET /api/agent/pull answers the canaries, scrapers and topologies defined here for the calling agent that
 * changed since its cursor (deletions included); POST /api/agent/playbook-actions/claim leases the next
 * playbook action waiting for it (runsOn) and /{id}/result stores what the agent's run gave. Every route
 * takes only an agent's token (scope agent-push), like POST /api/agent/push.
 */

export const PULL_TABLES = ['config_scrapers', 'canaries', 'topologies'] as const;
export type PullTable = (typeof PULL_TABLES)[number];
export const KIND_OF: Record<PullTable, string> = { canaries: 'Canary', config_scrapers: 'ScrapeConfig', topologies: 'Topology' };

/** One resource as the agent receives it; `deleted_at` set means: remove it. */
export interface PulledResource {
  kind: string;
  table: PullTable;
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  description?: string | null;
  deleted_at: string | null;
  updated_at: string | null;
  /** A canary's checks, so the agent's checks keep the ids this console gave them (their results match). */
  checks?: Array<{ id: string; key: string; type: string; name: string }>;
}

export interface PullAnswer {
  resources: PulledResource[];
  cursor: string;
  more: boolean;
}

/**
 * The agent a request is made for: the agent whose person the agent-push token belongs to (the same rule as
 * POST /api/agent/push: 401 without a token, 403 for any other token).
 */
export function agentOfToken(pool: pg.Pool, req: FastifyRequest): Promise<{ id: string; name: string }> {
  // Asked before the input is judged and again by the handler: once per request.
  let found = resolved.get(req);
  if (!found) {
    found = resolveAgent(pool, req);
    resolved.set(req, found);
  }
  return found;
}

const resolved = new WeakMap<FastifyRequest, Promise<{ id: string; name: string }>>();

async function resolveAgent(pool: pg.Pool, req: FastifyRequest): Promise<{ id: string; name: string }> {
  try {
    return await agentOfRequest(pool, req);
  } catch (error) {
    if (error instanceof PushRefused) throw new AppError(error.status === 403 ? 'forbidden' : 'invalid_request', error.message);
    throw error;
  }
}

const DEFAULT_PAGE = 500;

/** The changes for an agent after `since` (a version from agent_pull_changes), oldest first. */
export async function pullChanges(pool: pg.Pool, agentId: string, since: bigint, limit = DEFAULT_PAGE): Promise<PullAnswer> {
  const { rows: changes } = await pool.query<{ table_name: PullTable; resource_id: string; version: string }>(
    'SELECT table_name, resource_id, version FROM agent_pull_changes WHERE agent_id = $1 AND version > $2 ORDER BY version LIMIT $3',
    [agentId, since.toString(), limit],
  );
  const byTable = new Map<PullTable, Map<string, Record<string, unknown>>>();
  for (const table of PULL_TABLES) {
    const ids = changes.filter((change) => change.table_name === table).map((change) => change.resource_id);
    if (ids.length === 0) continue;
    const extra = table === 'config_scrapers' ? ', description' : '';
    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT id, name, namespace, labels, spec, agent_id, upstream_origin, deleted_at, updated_at${extra} FROM ${table} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    byTable.set(table, new Map(rows.map((row) => [String(row.id), row])));
  }
  const liveCanaries = changes.filter((change) => change.table_name === 'canaries').map((change) => change.resource_id);
  const checks = new Map<string, Array<{ id: string; key: string; type: string; name: string }>>();
  if (liveCanaries.length > 0) {
    const { rows } = await pool.query<{ id: string; canary_id: string; key: string; type: string; name: string }>(
      'SELECT id, canary_id, key, type, name FROM checks WHERE canary_id = ANY($1::uuid[]) AND deleted_at IS NULL AND transformed_from IS NULL ORDER BY key',
      [liveCanaries],
    );
    for (const row of rows) checks.set(row.canary_id, [...(checks.get(row.canary_id) ?? []), { id: row.id, key: row.key, type: row.type, name: row.name }]);
  }
  const now = new Date().toISOString();
  const resources = changes.map((change): PulledResource => {
    const row = byTable.get(change.table_name)?.get(change.resource_id);
    const mine = row !== undefined && row.agent_id === agentId && row.upstream_origin === true;
    const deletedAt = !mine ? now : row.deleted_at ? new Date(row.deleted_at as string).toISOString() : null;
    const labels = isRecord(row?.labels) ? Object.fromEntries(Object.entries(row.labels).map(([key, value]) => [key, String(value)])) : {};
    return {
      kind: KIND_OF[change.table_name],
      table: change.table_name,
      id: change.resource_id,
      name: typeof row?.name === 'string' ? row.name : '',
      namespace: typeof row?.namespace === 'string' ? row.namespace : 'default',
      labels,
      spec: mine && isRecord(row.spec) ? row.spec : {},
      ...(change.table_name === 'config_scrapers' ? { description: (row?.description as string | null | undefined) ?? null } : {}),
      deleted_at: deletedAt,
      updated_at: row?.updated_at ? new Date(row.updated_at as string).toISOString() : null,
      ...(change.table_name === 'canaries' && mine && !deletedAt ? { checks: checks.get(change.resource_id) ?? [] } : {}),
    };
  });
  const last = changes[changes.length - 1];
  return { resources, cursor: last ? last.version : since.toString(), more: changes.length === limit };
}

export type { AgentActionInput };

/** A claimed action: its input (the action as written, its data and env definitions; remote.ts) and its lease. */
export interface ClaimedAction extends AgentActionInput {
  id: string;
  run_id: string;
  name: string;
  type: string;
  /** The agent's name (as the token says): what it cannot resolve is said to be looked up there. */
  agent: string;
  /** Which claim this is: the result must name it (a lease that ran out and was claimed again refuses the old one). */
  claim: number;
  lease_until: string;
}

/** A run without its own timeout ends within 30 minutes (the playbook default); the lease is the action's time and a margin. */
const LEASE_MARGIN_MILLIS = 30_000;
const DEFAULT_ACTION_MILLIS = 30 * 60_000;

/**
 * Why a claimer cannot be given an action of this version's input (undefined: it can). An agent says which
 * input version it runs in its claim; one that says none is of an earlier version, which ran the action as
 * upstream rendered it with upstream's secrets.
 */
function inputVersionRefusal(agentName: string, inputVersion: number | undefined): string | undefined {
  if (inputVersion === AGENT_INPUT_VERSION) return undefined;
  if (inputVersion === undefined) {
    return `agent ${JSON.stringify(agentName)} runs an earlier version, which cannot resolve an action's secrets on the agent: upgrade it, then run the playbook again`;
  }
  return `agent ${JSON.stringify(agentName)} runs action input version ${inputVersion}, this console gives version ${AGENT_INPUT_VERSION}: run the same version on both`;
}

/** Ends an action that cannot be given to its agent as failed, with why; its run goes on (a retry policy retries it). */
async function failUnclaimable(client: pg.PoolClient, row: { id: string; playbook_run_id: string }, message: string): Promise<void> {
  await client.query("UPDATE playbook_run_actions SET status = 'failed', end_time = now(), error = $2, agent_input = NULL, agent_lease_until = NULL WHERE id = $1", [row.id, message]);
  await wakeRun(client, row.playbook_run_id);
}

/**
 * Leases the oldest action waiting for the agent (FOR UPDATE SKIP LOCKED), or none. `inputVersion` is what the
 * claiming agent says it runs: an action is given only to an agent that runs this console's input version.
 */
export async function claimAction(pool: pg.Pool, agent: { id: string; name: string }, inputVersion?: number): Promise<ClaimedAction | null> {
  const agentId = agent.id;
  const secrets = secretStore(pool);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; playbook_run_id: string; name: string; type: string; agent_input: string | null; agent_claims: number }>(
      `SELECT a.id, a.playbook_run_id, a.name, a.type, a.agent_input, a.agent_claims
         FROM playbook_run_actions a
        WHERE a.status = 'waiting' AND a.agent_id = $1 AND (a.agent_lease_until IS NULL OR a.agent_lease_until < now())
        ORDER BY a.scheduled_time, a.created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [agentId],
    );
    const row = rows[0];
    if (!row) return null;
    let revealed: unknown;
    try {
      revealed = JSON.parse(secrets.reveal(row.agent_input ?? ''));
    } catch {
      await failUnclaimable(client, row, 'the action input could not be read for the agent');
      return null;
    }
    if (!isAgentActionInput(revealed)) {
      // Sealed by an earlier version of this console: the action rendered with the secrets resolved here.
      await failUnclaimable(
        client,
        row,
        `this action was queued for agent ${JSON.stringify(agent.name)} by an earlier version of this console, which resolved its secrets here: it is not given to the agent (run the playbook again; a retry policy retries it)`,
      );
      return null;
    }
    const refusal = inputVersionRefusal(agent.name, inputVersion);
    if (refusal) {
      await failUnclaimable(client, row, refusal);
      return null;
    }
    const input = revealed;
    const leaseMillis = (input.timeoutMillis ?? DEFAULT_ACTION_MILLIS) + LEASE_MARGIN_MILLIS;
    const { rows: leased } = await client.query<{ agent_claims: number; agent_lease_until: Date }>(
      `UPDATE playbook_run_actions SET agent_claims = agent_claims + 1, agent_lease_until = now() + make_interval(secs => $2::double precision / 1000),
              start_time = now() WHERE id = $1 RETURNING agent_claims, agent_lease_until`,
      [row.id, leaseMillis],
    );
    const lease = leased[0];
    if (!lease) return null;
    return { ...input, id: row.id, run_id: row.playbook_run_id, name: row.name, type: row.type, agent: agent.name, claim: lease.agent_claims, lease_until: lease.agent_lease_until.toISOString() };
  });
}

/** The secret values sealed with an action's input (none when it cannot be read). */
function redactListOf(pool: pg.Pool, sealed: string | null): string[] {
  if (!sealed) return [];
  try {
    const input = JSON.parse(secretStore(pool).reveal(sealed)) as Partial<AgentActionInput>;
    return Array.isArray(input.redact) ? input.redact.filter((value): value is string => typeof value === 'string') : [];
  } catch {
    return [];
  }
}

async function wakeRun(client: pg.PoolClient, runId: string): Promise<void> {
  await client.query("UPDATE playbook_runs SET status = 'running', scheduled_time = now() WHERE id = $1 AND status = 'waiting'", [runId]);
  await client.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, runId]);
}

export const actionResultBody = z.object({
  claim: z.number({ message: 'is required: the claim number the claim answered' }).int().min(1),
  status: z.enum(['completed', 'failed', 'timed_out'], { message: 'must be completed, failed or timed_out' }),
  result: z.record(z.string(), z.unknown()).default({}),
  error: z.string().max(10_000).nullable().default(null),
});

/** Stores an agent's result for an action it claimed; the run goes on at once. */
export async function storeActionResult(pool: pg.Pool, agentId: string, id: string, body: z.infer<typeof actionResultBody>): Promise<{ id: string; status: string; run_id: string }> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; playbook_run_id: string; status: string; agent_id: string | null; agent_claims: number; agent_input: string | null }>(
      'SELECT id, playbook_run_id, status, agent_id, agent_claims, agent_input FROM playbook_run_actions WHERE id = $1 FOR UPDATE',
      [id],
    );
    const row = rows[0];
    if (!row || row.agent_id !== agentId) throw new AppError('not_found', `playbook action ${id} was not given to this agent`);
    if (row.status !== 'waiting') throw new AppError('conflict', `the action is no longer waiting for the agent (${row.status.replace('_', ' ')})`);
    if (row.agent_claims !== body.claim) throw new AppError('conflict', `claim ${body.claim} of this action has run out: it was claimed again (claim ${row.agent_claims})`);
    // Stored without the run's secrets this instance knows, whatever the agent sent.
    const redactor = new SecretValues(redactListOf(pool, row.agent_input));
    const error = redactor.redactNullable(body.status === 'completed' ? null : (body.error ?? `the action ${body.status.replace('_', ' ')} on the agent`));
    await client.query(
      'UPDATE playbook_run_actions SET status = $2, result = $3, error = $4, end_time = now(), agent_input = NULL, agent_lease_until = NULL WHERE id = $1',
      [id, body.status, JSON.stringify(redactor.redactDeep(body.result)), error],
    );
    await wakeRun(client, row.playbook_run_id);
    return { id, status: body.status, run_id: row.playbook_run_id };
  });
}

const tag = 'agents';
const claimBody = z
  .object({
    inputVersion: z.number({ message: 'must be the action input version the agent runs (a number)' }).int().min(1, 'must be at least 1').optional(),
  })
  .optional();
const cursorQuery = z.object({
  since: z.string().regex(/^\d{1,18}$/, 'must be a cursor this route answered (digits)').optional(),
  limit: z.coerce.number({ message: 'must be a number' }).int().min(1, 'must be between 1 and 1000').max(1000, 'must be between 1 and 1000').optional(),
});

export function pullRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;
  route(app, {
    method: 'GET',
    url: '/api/agent/pull',
    summary: 'The canaries, scrapers and topologies defined upstream for the calling agent (token scope agent-push) changed since the cursor, deletions included',
    tags: [tag],
    access: 'self-checked',
    before: (req) => agentOfToken(pool, req),
    query: cursorQuery,
    handler: async ({ req, query }) => {
      const agent = await agentOfToken(pool, req);
      return pullChanges(pool, agent.id, BigInt(query.since ?? '0'), query.limit ?? DEFAULT_PAGE);
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/agent/playbook-actions/claim',
    summary:
      'Leases the next playbook action waiting for the calling agent (runsOn): the action as written, its template data and env definitions, which the agent resolves with its own secrets; {action: null} when none waits',
    tags: [tag],
    access: 'self-checked',
    before: (req) => agentOfToken(pool, req),
    body: claimBody,
    handler: async ({ req, body }) => {
      const agent = await agentOfToken(pool, req);
      return { action: await claimAction(pool, agent, body?.inputVersion) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/agent/playbook-actions/:id/result',
    summary: 'Stores the result of a playbook action the calling agent claimed; the run goes on',
    tags: [tag],
    access: 'self-checked',
    before: (req) => agentOfToken(pool, req),
    bodyLimit: 16 * 1024 * 1024,
    params: z.object({ id: z.string().uuid('must be a UUID') }),
    body: actionResultBody,
    handler: async ({ req, params, body }) => {
      const agent = await agentOfToken(pool, req);
      return storeActionResult(pool, agent.id, params.id, body);
    },
  });
}
