import { z } from 'zod';

/** Spec §3: the nil uuid is this instance itself ('local'). */
export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';

const count = z.coerce.number().int().nonnegative().catch(0);

/** An `agents_summary` row (spec §7 /agents_summary), checked at the /api/db boundary. */
export const agentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
  hostname: z.string().nullable().optional(),
  version: z.string().nullable().optional(),
  last_seen: z.string().nullable().optional(),
  last_received: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  health: z.string().nullable().optional(),
  /** The local agent (GET /api/agent/local): this instance, not an agent that pushes. */
  local: z.boolean().optional(),
  checks: count,
  configs: count,
  canaries: count,
  scrapers: count,
  topologies: count,
});
export type AgentSummary = z.infer<typeof agentSummarySchema>;

export const AGENT_SUMMARY_COLUMNS = 'id,name,description,properties,hostname,version,last_seen,last_received,created_at,health,checks,configs,canaries,scrapers,topologies';

/** The answer of POST /api/agent/generate: shown once, the token in it cannot be read again. */
export const generatedAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  access_token: z.string(),
  username: z.string().optional(),
  upstream: z.string().optional(),
  command: z.string(),
  helm_values: z.string(),
  /** A rotation: the agent had a token, which keeps working until previousTokenValidUntil. */
  rotated: z.boolean().optional(),
  previousTokenValidUntil: z.string().nullable().optional(),
  previousTokenGraceSeconds: z.number().optional(),
});
export type GeneratedAgent = z.infer<typeof generatedAgentSchema>;

/** The answer of DELETE /api/agent/{id}: with cleanup, the rows soft-deleted per table. */
export const deletedAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  tokens_revoked: z.number().optional(),
  cleaned: z.record(z.string(), z.number()).default({}),
});
