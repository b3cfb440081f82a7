import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import type { Action, Resource } from '@common/rbac';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import type { PermissionFilters } from './filters';
import type { PermissionPayload } from './form';
import { buildPermissionsQuery } from './query';
import { checkResultSchema, PERMISSION_COLUMNS, permissionSchema, personSchema, teamSchema, type Permission } from './schema';

export const permissionKeys = {
  all: ['permissions'] as const,
  list: (filters: PermissionFilters & { pageSize: number }) => ['permissions', 'list', filters] as const,
  detail: (id: string) => ['permissions', 'detail', id] as const,
  person: (id: string) => ['people', 'detail', id] as const,
  teams: () => ['teams', 'options'] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

export function usePermissions(filters: PermissionFilters & { pageSize: number }) {
  return useQuery({
    queryKey: permissionKeys.list(filters),
    queryFn: async ({ signal }) => {
      const { data, error, count } = await buildPermissionsQuery(db, filters).abortSignal(signal);
      fail(error);
      const rows = z.array(permissionSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

/** One row, for an edit link whose row is not on the current page. */
export function usePermission(id: string | undefined, fromPage: Permission | undefined) {
  return useQuery({
    queryKey: permissionKeys.detail(id ?? ''),
    enabled: Boolean(id) && !fromPage,
    initialData: fromPage,
    queryFn: async () => {
      const { data, error } = await db.from('permissions_summary').select(PERMISSION_COLUMNS).eq('id', id ?? '').maybeSingle();
      fail(error);
      return data === null ? null : permissionSchema.parse(data);
    },
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: permissionKeys.all });
}

/**
 * PATCH and DELETE of a row that is not the console's (another source) match nothing: the server keeps
 * those read-only. An empty answer is therefore a refusal, not a success.
 */
const NOTHING_CHANGED = 'This permission is read-only here or no longer exists';

/** Spec §8: success toasts 'Permission added' / 'updated' / 'deleted'; failures toast the server's message. */
export function useCreatePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (payload: PermissionPayload) => {
      const { error } = await db.from('permissions').insert(payload);
      fail(error);
    },
    onSuccess: () => {
      toast.success('Permission added');
      return invalidate();
    },
  });
}

export function useUpdatePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, payload }: { id: string; payload: PermissionPayload }) => {
      const { data, error } = await db.from('permissions').update(payload).eq('id', id).select('id');
      fail(error);
      if (!data || data.length === 0) throw new Error(NOTHING_CHANGED);
    },
    onSuccess: () => {
      toast.success('Permission updated');
      return invalidate();
    },
  });
}

export function useDeletePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: string) => {
      const { data, error } = await db.from('permissions').delete().eq('id', id).select('id');
      fail(error);
      if (!data || data.length === 0) throw new Error(NOTHING_CHANGED);
    },
    onSuccess: () => {
      toast.success('Permission deleted');
      return invalidate();
    },
  });
}

/** One person by id, to name a subject that came from a link rather than from the search. */
export function usePerson(id: string) {
  return useQuery({
    queryKey: permissionKeys.person(id),
    enabled: z.uuid().safeParse(id).success,
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async () => {
      const { data, error } = await db.from('people').select('id,name,email,avatar').eq('id', id).maybeSingle();
      fail(error);
      return data === null ? null : personSchema.parse(data);
    },
  });
}

export function useTeams() {
  return useQuery({
    queryKey: permissionKeys.teams(),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async () => {
      const { data, error } = await db.from('teams').select('id,name').order('name');
      fail(error);
      return z.array(teamSchema).parse(data ?? []);
    },
  });
}

/** POST /api/rbac/check: is the action allowed, and which rule decided it. */
export function useCheckAccess() {
  return useMutation({
    mutationFn: (input: { person_id: string; object: Resource; action: Action }) => api.post('/api/rbac/check', input, (data) => checkResultSchema.parse(data)),
  });
}
