import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { AGENT_PUSH_SCOPE, hasAgentPushScope, isTokenScope } from '../../../common/rbac';
import { AppError } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { createAccessToken, credentialOf } from '../identity';
import { sha256 } from '../../platform/crypto';
import { PushRefused, type PushAgent } from './push';
import { NIL_AGENT, type OWNED_TABLES } from './tables';

export const PUSH_FORBIDDEN = 'this token may not push for an agent (scope agent-push)';
export const PUSH_UNAUTHORIZED = 'send the agent\'s token: Authorization: Bearer <token> (POST /api/agent/generate makes one)';

/**
 * The agent a push request speaks for: the bearer (or Basic `token:`) API token must carry the agent-push
 * scope and act for an agent's person (agents.person_id). No or an unknown token is 401; a valid token of
 * anyone else, or without the scope, is 403. An agent's person has no identity, so its token opens no
 * other route (the access guard finds no one behind it).
 */
export async function agentOfRequest(pool: pg.Pool, req: FastifyRequest): Promise<PushAgent> {
  const credential = credentialOf(req);
  if (credential?.kind === 'access_token') {
    const { rows } = await pool.query<{ token_id: string; scopes: unknown; agent_id: string | null; agent_name: string | null }>(
      `SELECT t.id AS token_id, t.scopes, a.id AS agent_id, a.name AS agent_name
         FROM access_tokens t LEFT JOIN agents a ON a.person_id = t.person_id AND a.deleted_at IS NULL AND a.id <> $2
        WHERE t.hash = $1 AND t.deleted_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
        LIMIT 1`,
      [sha256(credential.token), NIL_AGENT],
    );
    const row = rows[0];
    if (row) {
      const scopes = Array.isArray(row.scopes) ? row.scopes.filter(isTokenScope) : [];
      if (!row.agent_id || !row.agent_name || !hasAgentPushScope(scopes)) throw new PushRefused(403, PUSH_FORBIDDEN);
      pool
        .query("UPDATE access_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')", [row.token_id])
        .catch(() => undefined);
      return { id: row.agent_id, name: row.agent_name };
    }
  }
  // A signed-in person (a session, a token of theirs) may not push; no credential at all is 401.
  if (req.actor) throw new PushRefused(403, PUSH_FORBIDDEN);
  throw new AppError('unauthorized', PUSH_UNAUTHORIZED);
}

export const AGENT_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export interface GeneratedAgent {
  id: string;
  name: string;
  person_id: string;
  access_token: string;
  username: 'token';
  upstream: string;
  command: string;
  helm_values: string;
  /** True when the agent already had a token: this one rotates it. */
  rotated: boolean;
  /**
   * When the agent's earlier tokens stop working (a rotation, docs/AGENTS.md "Token rotation"): now plus the
   * grace period; null when there was no earlier token.
   */
  previousTokenValidUntil: string | null;
  /** The grace period of this rotation, in seconds. */
  previousTokenGraceSeconds: number;
}

/** How long an agent's earlier tokens keep working after a rotation, unless the call or the server says otherwise. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 300;
/** The longest grace a rotation may give the earlier tokens (a day). */
export const MAX_ROTATION_GRACE_SECONDS = 86_400;

/**
 * The server's default grace: WATCHKEEPER_AGENT_TOKEN_GRACE_SECONDS when it is a whole number of seconds
 * within 0…86400, else 300 (5 minutes).
 */
export function defaultRotationGraceSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.WATCHKEEPER_AGENT_TOKEN_GRACE_SECONDS?.trim();
  if (!text || !/^\d+$/.test(text)) return DEFAULT_ROTATION_GRACE_SECONDS;
  const seconds = Number(text);
  return seconds <= MAX_ROTATION_GRACE_SECONDS ? seconds : DEFAULT_ROTATION_GRACE_SECONDS;
}

const yamlText = (value: string) => JSON.stringify(value);

/** The values of a Helm release that runs watchkeeper as this agent (its env names the flags `serve` reads). */
export function helmValues(upstream: string, name: string, token: string): string {
  return [
    `# watchkeeper as agent "${name}" of ${upstream}: the same program, running its checks, scrapers and`,
    '# topologies close to the systems and pushing the results upstream (docs/API.md "Agents").',
    'upstream:',
    `  url: ${yamlText(upstream)}`,
    `  agentName: ${yamlText(name)}`,
    `  token: ${yamlText(token)}`,
    'env:',
    '  - name: WATCHKEEPER_UPSTREAM',
    `    value: ${yamlText(upstream)}`,
    '  - name: WATCHKEEPER_AGENT_NAME',
    `    value: ${yamlText(name)}`,
    '  - name: WATCHKEEPER_UPSTREAM_TOKEN',
    `    value: ${yamlText(token)}`,
    '',
  ].join('\n');
}

/**
 * Creates the agent `name` (or reuses the one of that name), its person (type 'agent') and a new token
 * with the single scope agent-push. A second call for a name rotates: the agent's earlier tokens stop
 * working `graceSeconds` after it (their expires_at is set, never pushed later than it already was), so a
 * running agent has that long to be given the new one; the answer says until when.
 */
export async function generateAgent(
  pool: pg.Pool,
  input: { name: string; properties?: Record<string, unknown> | undefined; description?: string | undefined },
  options: { createdBy: string; upstream: string; graceSeconds?: number },
): Promise<GeneratedAgent> {
  const graceSeconds = options.graceSeconds ?? defaultRotationGraceSeconds();
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('watchkeeper.agents.generate'), hashtext($1))", [input.name]);
    const { rows } = await client.query<{ id: string; person_id: string | null }>('SELECT id, person_id FROM agents WHERE name = $1 AND deleted_at IS NULL', [input.name]);
    let agent = rows[0];
    if (agent?.id === NIL_AGENT) throw new AppError('invalid_request', `name: "${input.name}" is this instance (the local agent); choose another name`, [{ path: 'body.name', message: 'is the local agent' }]);
    let personId = agent?.person_id ?? null;
    if (personId) {
      const alive = await client.query('SELECT 1 FROM people WHERE id = $1 AND deleted_at IS NULL', [personId]);
      if (!alive.rowCount) personId = null;
    }
    if (!personId) {
      const person = await client.query<{ id: string }>("INSERT INTO people (name, type) VALUES ($1, 'agent') RETURNING id", [input.name]);
      personId = person.rows[0]?.id ?? null;
      if (!personId) throw new Error('people insert returned no row');
    }
    if (agent) {
      await client.query(
        'UPDATE agents SET person_id = $2, properties = coalesce($3::jsonb, properties), description = coalesce($4, description) WHERE id = $1',
        [agent.id, personId, input.properties === undefined ? null : JSON.stringify(input.properties), input.description ?? null],
      );
    } else {
      const created = await client.query<{ id: string; person_id: string }>(
        'INSERT INTO agents (name, description, properties, person_id, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id, person_id',
        [input.name, input.description ?? null, JSON.stringify(input.properties ?? {}), personId, options.createdBy],
      );
      agent = created.rows[0];
      if (!agent) throw new Error('agents insert returned no row');
    }
    // A rotation: the earlier tokens of the agent's person expire after the grace (sooner ones keep theirs).
    const earlier = await client.query<{ valid_until: Date }>(
      `UPDATE access_tokens SET expires_at = LEAST(coalesce(expires_at, 'infinity'::timestamptz), now() + make_interval(secs => $2::float8))
        WHERE person_id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        RETURNING expires_at AS valid_until`,
      [personId, graceSeconds],
    );
    const validUntil = earlier.rows.reduce<Date | null>((latest, row) => (!latest || row.valid_until > latest ? row.valid_until : latest), null);
    const token = await createAccessToken(client, { personId, name: `agent-${input.name}`, scopes: [AGENT_PUSH_SCOPE], expiresAt: null, createdBy: options.createdBy });
    const upstream = options.upstream;
    return {
      id: agent.id,
      name: input.name,
      person_id: personId,
      access_token: token.token,
      username: 'token',
      upstream,
      command: `watchkeeper serve --upstream ${upstream} --agent-name ${input.name} --token ${token.token}`,
      helm_values: helmValues(upstream, input.name, token.token),
      rotated: validUntil !== null,
      previousTokenValidUntil: validUntil?.toISOString() ?? null,
      previousTokenGraceSeconds: graceSeconds,
    };
  });
}

/** What DELETE /api/agent/{id} cleaned up, table by table (only with cleanup). */
export type Cleaned = Partial<Record<(typeof OWNED_TABLES)[number], number>>;

/** The resources an agent's cleanup soft-deletes (spec §4 Deletion): what it runs and what it found. */
const CLEANUP_TABLES = ['canaries', 'checks', 'config_scrapers', 'config_items', 'topologies', 'components'] as const;

/**
 * Soft-deletes an agent (never the local one), revokes its tokens and retires its person; with cleanup,
 * soft-deletes its canaries, checks, scrapers, config items, topologies and components in the same
 * transaction.
 */
export async function deleteAgent(pool: pg.Pool, id: string, cleanup: boolean): Promise<{ id: string; name: string; cleanup: boolean; tokens_revoked: number; cleaned: Cleaned }> {
  if (id === NIL_AGENT) throw new AppError('invalid_request', 'the local agent (this instance) cannot be deleted', [{ path: 'params.id', message: 'is the local agent' }]);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; name: string; person_id: string | null }>(
      'UPDATE agents SET deleted_at = now(), cleanup = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING id, name, person_id',
      [id, cleanup],
    );
    const agent = rows[0];
    if (!agent) throw new AppError('not_found', `agent ${id} not found`);
    let revoked = 0;
    if (agent.person_id) {
      const tokens = await client.query('UPDATE access_tokens SET deleted_at = now() WHERE person_id = $1 AND deleted_at IS NULL', [agent.person_id]);
      revoked = tokens.rowCount ?? 0;
      await client.query("UPDATE people SET deleted_at = now() WHERE id = $1 AND type = 'agent' AND deleted_at IS NULL", [agent.person_id]);
    }
    const cleaned: Cleaned = {};
    if (cleanup) {
      for (const table of CLEANUP_TABLES) {
        const result = await client.query(`UPDATE ${table} SET deleted_at = now() WHERE agent_id = $1 AND deleted_at IS NULL`, [id]);
        cleaned[table] = result.rowCount ?? 0;
      }
    }
    return { id: agent.id, name: agent.name, cleanup, tokens_revoked: revoked, cleaned };
  });
}
