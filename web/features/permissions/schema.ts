import { waitingReferences } from '@common/waiting';
import { z } from 'zod';

const id = z.string();
const maybe = z.string().nullable();

/** Tag values as the evaluator compares them: strings (numbers and booleans from YAML read as text). */
const tagsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).nullable();

/** A `permissions_summary` row (spec §3 Permission, with the summary's person, team and group). */
export const permissionSchema = z.object({
  id,
  name: maybe,
  namespace: maybe,
  description: maybe,
  action: z.string(),
  deny: z.boolean(),
  subject: z.string(),
  subject_type: z.string(),
  person_id: maybe,
  team_id: maybe,
  notification_id: maybe,
  object: maybe,
  object_selector: z.unknown().nullable(),
  config_id: maybe,
  component_id: maybe,
  canary_id: maybe,
  playbook_id: maybe,
  connection_id: maybe,
  tags: tagsSchema,
  agents: z.array(z.string()).nullable(),
  until: maybe,
  source: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  person: z.object({ id, name: z.string(), email: maybe, avatar: maybe }).nullable(),
  team: z.object({ id, name: z.string(), icon: maybe }).nullable(),
  group: maybe,
  created_by_person: z.object({ id, name: z.string() }).nullable(),
  /** A person, team or scope the row names that does not exist yet: it grants nothing through it until then. */
  waiting_for: z.unknown().optional().transform(waitingReferences),
  /** Why the row grants nothing (a subject this console does not know). */
  error: maybe.optional(),
});
export type Permission = z.infer<typeof permissionSchema>;

export const PERMISSION_COLUMNS = Object.keys(permissionSchema.shape).join(',');

/** Spec §4: only rows created in the console are edited there; the others belong to where they came from. */
export const EDITABLE_SOURCE = 'UI';
export const isEditable = (permission: Pick<Permission, 'source'>) => permission.source === EDITABLE_SOURCE;

export const personSchema = z.object({ id, name: z.string(), email: maybe, avatar: maybe });
export type PersonOption = z.infer<typeof personSchema>;
export const teamSchema = z.object({ id, name: z.string() });
export type TeamOption = z.infer<typeof teamSchema>;

/** POST /api/rbac/check. */
export const checkResultSchema = z.object({
  allowed: z.boolean(),
  reason: z.enum(['deny', 'permission', 'role', 'token', 'none']),
  explanation: z.string(),
  role: z.string().optional(),
  permission: z.object({ id, action: z.string(), deny: z.boolean(), object: maybe }).passthrough().optional(),
  subject: z.object({ id, name: z.string(), roles: z.array(z.string()) }),
});
export type CheckResult = z.infer<typeof checkResultSchema>;
