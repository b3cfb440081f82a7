import { SETTINGS_LIST_LIMIT, SETTINGS_LIST_ORDER } from '@common/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError } from '@web/lib/api';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import type { ResourceWrite, SettingsResource } from './types';
import { resourceRowSchema } from './values';

export const resourceKeys = {
  all: (table: string) => ['settings-resource', table] as const,
  list: (table: string) => ['settings-resource', table, 'list'] as const,
  detail: (table: string, id: string) => ['settings-resource', table, 'detail', id] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

/** Spec §9: generic settings lists show 100 rows, newest first. */
export function useResourceList(resource: SettingsResource, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.list(resource.table),
    enabled,
    queryFn: async () => {
      const { data, error } = await db
        .from(resource.listTable ?? resource.table)
        .select('*')
        .order(SETTINGS_LIST_ORDER.column, { ascending: SETTINGS_LIST_ORDER.ascending })
        .limit(SETTINGS_LIST_LIMIT);
      fail(error);
      return z.array(resourceRowSchema).parse(data ?? []);
    },
  });
}

export function useResource(resource: SettingsResource, id: string | null, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.detail(resource.table, id ?? 'new'),
    enabled: enabled && id !== null,
    queryFn: async () => {
      const { data, error } = await db.from(resource.table).select('*').eq('id', id ?? '').maybeSingle();
      fail(error);
      return data === null ? null : resourceRowSchema.parse(data);
    },
  });
}

/**
 * A refusal that names its fields (a 400 whose details list paths): a resource editor of its own shows
 * each problem in place, so a toast would only repeat them.
 */
export function isFieldProblems(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && Array.isArray(error.data && typeof error.data === 'object' ? Reflect.get(error.data, 'details') : undefined);
}

export function useSaveResource(resource: SettingsResource, id: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (values: ResourceWrite) => {
      if (resource.api) return resource.api.save(values, id);
      const { error } = id === null ? await db.from(resource.table).insert(values) : await db.from(resource.table).update(values).eq('id', id);
      fail(error);
    },
    meta: { toast: false },
    onError: (error) => {
      if (!(resource.editor && isFieldProblems(error))) toast.error(error);
    },
    onSuccess: () => {
      // Spec §8: '{resource} updated successfully'.
      toast.success(`${resource.singular} ${id === null ? 'created' : 'updated'} successfully`);
      return client.invalidateQueries({ queryKey: resourceKeys.all(resource.table) });
    },
  });
}

/**
 * Soft delete (spec §4); the toast names the row or the resource kind, as the resource says (spec §8:
 * '{name} deleted successfully', '{resource} deleted successfully').
 */
export function useDeleteResource(resource: SettingsResource, id: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      if (resource.api) return resource.api.remove(id);
      const { error } = await db.from(resource.table).delete().eq('id', id);
      fail(error);
    },
    onSuccess: () => {
      toast.success(`${resource.deletedToast === 'resource' ? resource.singular : name} deleted successfully`);
      return client.invalidateQueries({ queryKey: resourceKeys.all(resource.table) });
    },
  });
}
