import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Role } from '@common/rbac';
import { api } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { memberSchema, organizationSchema, successSchema, type Member, type Organization } from './schema';

export const organizationKeys = {
  all: ['organizations-admin'] as const,
  list: () => ['organizations-admin', 'list'] as const,
  members: (id: string) => ['organizations-admin', 'members', id] as const,
};

const BASE = '/api/auth/organizations';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export function useOrganizations() {
  return useQuery({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => api.get(BASE, (data) => z.array(organizationSchema).parse(data), { signal }),
  });
}

const accessSchema = z.object({ platform_admin: z.boolean(), organization_id: z.string().nullable() });

/**
 * What the signed-in person manages here (docs/HOSTED.md "Platform administrators and organization
 * admins"): every organization (a platform administrator) or its own organization's members.
 */
export function useOrganizationsAccess() {
  return useQuery({
    queryKey: ['organizations-admin', 'access'] as const,
    queryFn: ({ signal }) => api.get(`${BASE}/access`, accessSchema.parse, { signal }),
    retry: false,
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: organizationKeys.all });
}

export interface OrganizationBody {
  name: string;
  external_id: string | null;
  backend_url: string | null;
  direct: boolean;
}

/** The dialog shows a taken name or external id on its field and toasts other failures itself. */
export function useSaveOrganization(id: string | undefined) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: OrganizationBody) => (id ? api.patch(path(id), body, organizationSchema.parse) : api.post(BASE, body, organizationSchema.parse)),
    meta: { toast: false },
    onSuccess: (saved) => {
      toast.success(id ? `${saved.name} updated successfully` : `${saved.name} created successfully`);
      return invalidate();
    },
  });
}

/** Spec §8: '{name} deleted successfully'. */
export function useDeleteOrganization() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (organization: Organization) => api.delete(path(organization.id), successSchema.parse),
    onSuccess: (_data, organization) => {
      toast.success(`${organization.name} deleted successfully`);
      return invalidate();
    },
  });
}

export function useMembers(id: string) {
  return useQuery({
    queryKey: organizationKeys.members(id),
    queryFn: ({ signal }) => api.get(`${path(id)}/members`, (data) => z.array(memberSchema).parse(data), { signal }),
  });
}

export function useInviteMember(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { email: string; role: Role | null }) => api.post(`${path(id)}/members`, body, memberSchema.parse),
    meta: { toast: false },
    onSuccess: (member) => {
      toast.success(`${member.email ?? member.name} invited`);
      return invalidate();
    },
  });
}

export function useSetMemberRole(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role | null }) => api.patch(`${path(id)}/members/${encodeURIComponent(member.person_id)}`, { role }, memberSchema.parse),
    onSuccess: () => invalidate(),
  });
}

export function useRemoveMember(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (member: Member) => api.delete(`${path(id)}/members/${encodeURIComponent(member.person_id)}`, successSchema.parse),
    onSuccess: (_data, member) => {
      toast.success(`${member.name || member.email || 'Member'} removed`);
      return invalidate();
    },
  });
}
