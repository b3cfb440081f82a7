import { z } from 'zod';
import { api } from '@web/lib/api';

/** GET /api/auth/organization-backend: whether the session's organization's backend answers (docs/HOSTED.md). */
export const organizationBackendSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string(), backend_url: z.string().nullable(), direct: z.boolean() }),
  state: z.enum(['ready', 'provisioning', 'error']),
  reason: z.string().optional(),
});
export type OrganizationBackend = z.infer<typeof organizationBackendSchema>;

export const organizationBackendKey = (organizationId: string) => ['hosted', 'organization-backend', organizationId] as const;

export function fetchOrganizationBackend(signal?: AbortSignal): Promise<OrganizationBackend> {
  return api.get('/api/auth/organization-backend', (data) => organizationBackendSchema.parse(data), signal ? { signal } : undefined);
}

/** GET /api/auth/organization-token: the 5-minute bearer token for the organization's backend. */
export const organizationTokenSchema = z.object({ token: z.string(), expires_at: z.string() });

export function fetchOrganizationToken(): Promise<z.infer<typeof organizationTokenSchema>> {
  return api.get('/api/auth/organization-token', (data) => organizationTokenSchema.parse(data));
}
