import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Action, Resource } from '../../../common/rbac';
import { allows, decide } from '../../platform/auth/decide';
import type { AccessTarget, Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';

/**
 * MCP resources (docs/MCP.md): `watchkeeper://config/{id}`, `watchkeeper://check/{id}` and
 * `watchkeeper://incident/{number}` as templates, and the static `watchkeeper://health` summary. Each read
 * is checked as the tools are: the resource's RBAC action, then the item itself.
 */

/** The MCP spec's "resource not found" code. */
const RESOURCE_NOT_FOUND = -32002;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function json(uri: URL, value: unknown, compact: (value: unknown) => unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(compact(value)) }] };
}

function notFound(what: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `${what} not found`);
}

function assertMay(actor: Actor, resource: Resource, action: Action, what: string, target?: AccessTarget): void {
  if (!decide(actor, resource, action, target).allowed) throw new McpError(ErrorCode.InvalidRequest, `forbidden: reading ${what} needs the ${action} permission on ${resource}`);
}

function variable(value: string | string[] | undefined, name: string): string {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new McpError(ErrorCode.InvalidParams, `${name}: is required in the URI`);
  return decodeURIComponent(text);
}

/** The `{id}` of a config or check URI, once the caller may read `what` at all: a UUID, else InvalidParams. */
function uuidVariable(actor: Actor, value: string | string[] | undefined, resource: Resource, what: string): string {
  const id = variable(value, 'id');
  assertMay(actor, resource, 'read', what);
  if (!UUID.test(id)) throw new McpError(ErrorCode.InvalidParams, 'id: must be a UUID');
  return id;
}

export function registerResources(server: McpServer, ctx: AppContext, actor: Actor, compact: (value: unknown) => unknown): void {
  const { pool } = ctx;

  server.registerResource(
    'config',
    new ResourceTemplate('watchkeeper://config/{id}', { list: undefined }),
    { title: 'Config item', description: 'A config item (catalog): its fields and its JSON (cut at 20,000 characters). id: the item’s UUID.', mimeType: 'application/json' },
    async (uri, vars) => {
      const id = uuidVariable(actor, vars.id, 'config_scrapers', 'config items');
      const { rows } = await pool.query<Record<string, unknown> & { agent_id: string; config: unknown; name: string | null; type: string; tags: Record<string, string> | null }>(
        `SELECT id, name, type, config_class, namespace, description, status, health, ready, labels, tags, agent_id, config, created_at, updated_at
         FROM config_items WHERE id = $1 AND deleted_at IS NULL`,
        [id],
      );
      const item = rows[0];
      if (!item) throw notFound(`config item ${id}`);
      assertMay(actor, 'config_scrapers', 'read', `config item ${id}`, { kind: 'config', id, agent: item.agent_id, name: item.name ?? '', type: item.type, tags: item.tags ?? undefined });
      const { config, agent_id: _agent, ...fields } = item;
      const text = config === null || config === undefined ? undefined : JSON.stringify(config);
      return json(uri, { ...fields, config: text && text.length > 20_000 ? `${text.slice(0, 20_000)}…` : text }, compact);
    },
  );

  server.registerResource(
    'check',
    new ResourceTemplate('watchkeeper://check/{id}', { list: undefined }),
    { title: 'Health check', description: 'A health check: status, canary and its last 10 results. id: the check’s UUID.', mimeType: 'application/json' },
    async (uri, vars) => {
      const id = uuidVariable(actor, vars.id, 'canaries', 'health checks');
      const { rows } = await pool.query<Record<string, unknown> & { canary_id: string; canary_name: string; canary_namespace: string }>(
        `SELECT c.id, c.name, c.type, c.status, c.description, c.severity, c.labels, c.last_runtime, c.canary_id, k.name AS canary_name, k.namespace AS canary_namespace
         FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE c.id = $1 AND c.deleted_at IS NULL`,
        [id],
      );
      const check = rows[0];
      if (!check) throw notFound(`check ${id}`);
      assertMay(actor, 'canaries', 'read', `check ${id}`, { kind: 'canary', id: check.canary_id, name: check.canary_name, namespace: check.canary_namespace });
      const { canary_id: _canary, canary_name, canary_namespace, ...fields } = check;
      const results = await pool.query('SELECT time, status AS pass, duration AS duration_ms, message, error FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 10', [id]);
      return json(uri, { ...fields, canary: `${canary_namespace}/${canary_name}`, results: results.rows }, compact);
    },
  );

  server.registerResource(
    'incident',
    new ResourceTemplate('watchkeeper://incident/{number}', { list: undefined }),
    { title: 'Incident', description: 'An incident with its hypotheses and latest 10 comments. number: INC-42 (or the incident’s UUID).', mimeType: 'application/json' },
    async (uri, vars) => {
      const ref = variable(vars.number, 'number');
      assertMay(actor, 'incident', 'read', 'incidents');
      const byId = UUID.test(ref);
      if (!byId && !/^(INC-)?\d{1,12}$/i.test(ref)) throw new McpError(ErrorCode.InvalidParams, 'number: must be an incident number such as INC-42, or a UUID');
      const number = byId ? ref : /^\d+$/.test(ref) ? `INC-${ref}` : ref.toUpperCase();
      const { rows } = await pool.query<{ id: string }>(
        `SELECT i.id, i.incident_id AS number, i.title, i.description, i.status, i.severity, i.type, i.created_at, i.resolved_at, c.name AS commander
         FROM incidents i LEFT JOIN people c ON c.id = i.commander_id WHERE ${byId ? 'i.id = $1::uuid' : 'i.incident_id = $1'}`,
        [number],
      );
      const incident = rows[0];
      if (!incident) throw notFound(`incident ${ref}`);
      const [hypotheses, comments] = await Promise.all([
        pool.query('SELECT id, parent_id, type, title, status FROM hypotheses WHERE incident_id = $1 ORDER BY created_at', [incident.id]),
        pool.query('SELECT c.comment, p.name AS author, c.created_at FROM comments c LEFT JOIN people p ON p.id = c.created_by WHERE c.incident_id = $1 ORDER BY c.created_at DESC LIMIT 10', [incident.id]),
      ]);
      return json(uri, { ...incident, hypotheses: hypotheses.rows, comments: comments.rows }, compact);
    },
  );

  server.registerResource(
    'health',
    'watchkeeper://health',
    { title: 'Health summary', description: 'Counts of health checks by status, config items by health and open incidents by severity (the parts the caller may read).', mimeType: 'application/json' },
    async (uri) => {
      const parts: Record<string, unknown> = {};
      const hidden: string[] = [];
      const part = async (key: string, resource: Resource, sql: string) => {
        if (!allows(actor, resource, 'read')) {
          hidden.push(`${key} (needs read on ${resource})`);
          return;
        }
        const { rows } = await pool.query<{ key: string; count: number }>(sql);
        parts[key] = Object.fromEntries(rows.map((row) => [row.key, row.count]));
      };
      await part('checks', 'canaries', "SELECT coalesce(status, 'unknown') AS key, count(*)::int AS count FROM checks WHERE deleted_at IS NULL GROUP BY 1 ORDER BY 1");
      await part('config_items', 'config_scrapers', "SELECT coalesce(nullif(health, ''), 'unknown') AS key, count(*)::int AS count FROM config_items WHERE deleted_at IS NULL GROUP BY 1 ORDER BY 1");
      await part('open_incidents', 'incident', "SELECT severity AS key, count(*)::int AS count FROM incidents WHERE status NOT IN ('resolved', 'closed') GROUP BY 1 ORDER BY 1");
      if (Object.keys(parts).length === 0) throw new McpError(ErrorCode.InvalidRequest, 'forbidden: the health summary needs read on canaries, config_scrapers or incident');
      return json(uri, { ...parts, not_shown: hidden.length > 0 ? hidden : undefined }, compact);
    },
  );
}
