import { ACTIONS, RESOURCES, type AccessMap } from '@common/rbac';
import { z } from 'zod';
import type { SessionOrganization, SessionUser } from '@web/app/session';

/**
 * GET /api/auth/whoami → the console's SessionUser. Loaded on demand by session-source.ts, so the schema
 * library stays out of the first-load shell.
 */
const organizationSchema = z
  .object({ id: z.string(), name: z.string(), has_backend_url: z.boolean(), direct: z.boolean() })
  .transform(({ id, name, has_backend_url: hasBackendUrl, direct }): SessionOrganization => ({ id, name, hasBackendUrl, direct }));

const whoamiSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullish(),
    avatar: z.string().nullish(),
  }),
  roles: z.array(z.string()),
  // Unknown resources or actions (a newer server) are left out rather than failing the sign-in.
  permissions: z.record(z.string(), z.array(z.string())),
  // Hosted mode (docs/HOSTED.md): platform administrators exist in both modes; the rest is oidc mode's.
  platform_admin: z.boolean().optional(),
  organization: organizationSchema.nullish(),
  organizations: z.array(organizationSchema).optional(),
  organization_role: z.string().nullish(),
});

function accessMap(raw: Record<string, string[]>): AccessMap {
  const map: AccessMap = {};
  for (const resource of RESOURCES) {
    const actions = raw[resource]?.flatMap((action) => ACTIONS.filter((known) => known === action));
    if (actions && actions.length > 0) map[resource] = actions;
  }
  return map;
}

export function parseWhoami(data: unknown): SessionUser {
  const parsed = whoamiSchema.parse(data);
  const { user } = parsed;
  return {
    id: user.id,
    name: user.name || user.email || 'Unknown user',
    ...(user.email ? { email: user.email } : {}),
    ...(user.avatar ? { avatar: user.avatar } : {}),
    roles: parsed.roles,
    permissions: accessMap(parsed.permissions),
    ...(parsed.platform_admin ? { platformAdmin: true } : {}),
    ...(parsed.organizations ? { hosted: { organization: parsed.organization ?? null, organizations: parsed.organizations, role: parsed.organization_role ?? null } } : {}),
  };
}

/** The id of a Kratos-style error body (`{ details: { id } }` of /api/auth, or `{ error: { id } }`). */
export function errorId(data: unknown): string | undefined {
  const parsed = z
    .union([z.object({ details: z.object({ id: z.string() }) }), z.object({ error: z.object({ id: z.string() }) })])
    .safeParse(data);
  if (!parsed.success) return undefined;
  return 'details' in parsed.data ? parsed.data.details.id : parsed.data.error.id;
}
