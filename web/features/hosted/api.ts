import { api } from '@web/lib/api';
import { flag, oneOf, optionalText, record, text } from '@web/lib/shape';

/** GET /api/auth/organization-backend: whether the session's organization's backend answers (docs/HOSTED.md). */
export interface OrganizationBackend {
  organization: { id: string; name: string; backend_url: string | null; direct: boolean };
  state: 'ready' | 'provisioning' | 'error';
  reason?: string | undefined;
}

const STATES = ['ready', 'provisioning', 'error'] as const;

/** Reads the answer (the shell loads this before any page: no zod here, web/lib/shape.ts). */
export function parseOrganizationBackend(data: unknown): OrganizationBackend {
  const answer = record(data, 'organization backend');
  const organization = record(answer.organization, 'organization backend.organization');
  const where = 'organization';
  const backendUrl = organization.backend_url === null ? null : text(organization, 'backend_url', where);
  const reason = optionalText(answer, 'reason', 'organization backend');
  return {
    organization: { id: text(organization, 'id', where), name: text(organization, 'name', where), backend_url: backendUrl, direct: flag(organization, 'direct', where) },
    state: oneOf(answer, 'state', STATES, 'organization backend'),
    ...(reason === undefined ? {} : { reason }),
  };
}

export const organizationBackendKey = (organizationId: string) => ['hosted', 'organization-backend', organizationId] as const;

export function fetchOrganizationBackend(signal?: AbortSignal): Promise<OrganizationBackend> {
  return api.get('/api/auth/organization-backend', parseOrganizationBackend, signal ? { signal } : undefined);
}

/** GET /api/auth/organization-token: the 5-minute bearer token for the organization's backend. */
export interface OrganizationToken {
  token: string;
  expires_at: string;
}

export function parseOrganizationToken(data: unknown): OrganizationToken {
  const answer = record(data, 'organization token');
  return { token: text(answer, 'token', 'organization token'), expires_at: text(answer, 'expires_at', 'organization token') };
}

export function fetchOrganizationToken(): Promise<OrganizationToken> {
  return api.get('/api/auth/organization-token', parseOrganizationToken);
}
