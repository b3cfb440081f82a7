import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { allows } from '../../platform/auth/decide';
import type { Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';

/**
 * MCP prompts (docs/MCP.md): `troubleshoot` (a config item, check or component by id or name) and
 * `incident_summary` (an incident number). Each answers one user message telling the assistant which
 * tools to call, naming only tools this server has.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function message(text: string, description: string): GetPromptResult {
  return { description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

/** What an id is, when the caller may read it: a config item, a check or a component. */
async function kindOf(ctx: AppContext, actor: Actor, id: string): Promise<{ kind: 'config' | 'check' | 'component'; name: string; type: string } | undefined> {
  if (allows(actor, 'config_scrapers', 'read')) {
    const { rows } = await ctx.pool.query<{ name: string; type: string }>('SELECT coalesce(name, id::text) AS name, type FROM config_items WHERE id = $1 AND deleted_at IS NULL', [id]);
    if (rows[0]) return { kind: 'config', ...rows[0] };
  }
  if (allows(actor, 'canaries', 'read')) {
    const { rows } = await ctx.pool.query<{ name: string; type: string }>('SELECT name, type FROM checks WHERE id = $1 AND deleted_at IS NULL', [id]);
    if (rows[0]) return { kind: 'check', ...rows[0] };
  }
  if (allows(actor, 'topologies', 'read')) {
    const { rows } = await ctx.pool.query<{ name: string; type: string }>("SELECT name, coalesce(type, '') AS type FROM components WHERE id = $1 AND deleted_at IS NULL", [id]);
    if (rows[0]) return { kind: 'component', ...rows[0] };
  }
  return undefined;
}

export function registerPrompts(server: McpServer, ctx: AppContext, actor: Actor, toolNames: ReadonlySet<string>): void {
  /** The steps whose tool exists, numbered. */
  const steps = (items: Array<[tool: string, text: string]>) =>
    items.filter(([tool]) => toolNames.has(tool)).map(([tool, text], index) => `${index + 1}. \`${tool}\` ${text}`).join('\n');

  server.registerPrompt(
    'troubleshoot',
    {
      title: 'Troubleshoot a resource',
      description: 'Find out why a config item, health check or component is unhealthy, using the Watchkeeper tools.',
      argsSchema: { resource: z.string().trim().min(1).max(500).describe('the id (UUID) or name of a config item, check or component') },
    },
    async ({ resource }) => {
      const search = 'search_resources';
      const known = UUID.test(resource) ? await kindOf(ctx, actor, resource) : undefined;
      const subject = known ? `the ${known.kind === 'config' ? 'config item' : known.kind} "${known.name}" (${known.type ? `${known.type}, ` : ''}id ${resource})` : `"${resource}"`;
      const plan =
        known?.kind === 'check'
          ? steps([
              ['get_check_history', `with id ${resource}: when it started failing and the error messages.`],
              ['health_summary', `with query "${known.name}": its uptime and latency beside similar checks.`],
              ['list_incidents', 'with status ["open", "investigating"]: whether an incident covers it already.'],
              ['list_playbooks', `with check_id ${resource}: what could be run to fix it (run only when the user agrees).`],
            ])
          : steps([
              ...(known?.kind === 'config' ? [] : ([[search, `with query "${known?.name ?? resource}": find the item and its id.`]] as Array<[string, string]>)),
              ['get_config', `with the item's id${known?.kind === 'config' ? ` (${resource})` : ''}: its health, recent changes, open insights and related items; follow related items that are unhealthy with get_config too.`],
              ['health_summary', 'with health "unhealthy": failing checks that may be the cause or the symptom.'],
              ['list_incidents', 'with status ["open", "investigating"]: whether an incident covers it already.'],
              ['list_playbooks', `with ${known?.kind === 'component' ? 'component_id' : 'config_id'} of the item: what could be run to fix it (run only when the user agrees).`],
            ]);
      return message(
        `Troubleshoot ${subject} in Watchkeeper. Call these tools in order, each with what the earlier ones found:\n${plan}\n` +
          'Then answer: the likely cause (with the evidence: changes, insights, failing checks), the impact, and the next step. Say what you could not see.',
        `Troubleshoot ${subject}`,
      );
    },
  );

  server.registerPrompt(
    'incident_summary',
    {
      title: 'Summarise an incident',
      description: 'A summary of an incident: status, impact, hypotheses and evidence, and next steps.',
      argsSchema: { number: z.string().trim().regex(/^(INC-)?\d{1,12}$/i, 'must be an incident number such as INC-42').describe('the incident number, e.g. INC-42') },
    },
    ({ number }) => {
      const ref = /^\d+$/.test(number) ? `INC-${number}` : number.toUpperCase();
      const plan = steps([
        ['get_incident', `with id "${ref}": its status, severity, commander, hypotheses with their evidence, and the latest comments.`],
        ['get_config', 'for each config item named as evidence (config_id): its current health and recent changes.'],
        ['get_check_history', 'for each check named as evidence (check_id): whether it still fails.'],
      ]);
      return message(
        `Summarise incident ${ref} in Watchkeeper. Call these tools:\n${plan}\n` +
          'Then write a short summary: status and severity, impact, timeline, each hypothesis (root → factor → solution) with its evidence and whether it is done, and the open next steps.',
        `Summary of ${ref}`,
      );
    },
  );
}
