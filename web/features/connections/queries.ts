import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ConnectionInput } from '@common/connections';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import { buildConnectionsQuery, type ConnectionsQuery } from './query';
import { CONNECTION_COLUMNS, connectionRowSchema, secretSummarySchema, testResultSchema, type ConnectionRow } from './schema';

export const connectionKeys = {
  all: ['connections'] as const,
  list: (query: ConnectionsQuery) => ['connections', 'list', query] as const,
  detail: (id: string) => ['connections', 'detail', id] as const,
  references: () => ['connections', 'references'] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

export function useConnections(query: ConnectionsQuery) {
  return useQuery({
    queryKey: connectionKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, error, count } = await buildConnectionsQuery(db, query).abortSignal(signal);
      fail(error);
      const rows = z.array(connectionRowSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

export function useConnection(id: string) {
  return useQuery({
    queryKey: connectionKeys.detail(id),
    queryFn: async () => {
      const { data, error } = await db.from('connections').select(CONNECTION_COLUMNS).eq('id', id).maybeSingle();
      fail(error);
      return data === null ? null : connectionRowSchema.parse(data);
    },
  });
}

/** Names and keys of the secrets and config maps, offered while a reference is typed (never their values). */
export function useReferenceTargets(enabled: boolean) {
  return useQuery({
    queryKey: connectionKeys.references(),
    enabled,
    queryFn: async () => {
      const [secrets, configMaps] = await Promise.all([
        db.from('secrets').select('name,namespace,keys').order('name').limit(500),
        db.from('config_maps').select('name,namespace,keys').order('name').limit(500),
      ]);
      fail(secrets.error);
      fail(configMaps.error);
      return { secret: z.array(secretSummarySchema).parse(secrets.data ?? []), configmap: z.array(secretSummarySchema).parse(configMaps.data ?? []) };
    },
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: connectionKeys.all });
}

const parseRow = (data: unknown): ConnectionRow => connectionRowSchema.parse(data);

/**
 * POST /api/connections. The form shows a 400's problems and a 409 (the name is taken) at their fields,
 * so this mutation does not toast them; other failures toast.
 */
export function useCreateConnection() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: ConnectionInput) => api.post('/api/connections', input, parseRow),
    meta: { toast: false },
    onSuccess: () => {
      toast.success('Connection created successfully');
      return invalidate();
    },
  });
}

/**
 * PATCH /api/connections/{id}: a secret sent as the mask (or left out) keeps its stored value. `onDone`
 * runs before the refetch, which would otherwise replace the page (and its callbacks) under it.
 */
export function useUpdateConnection(id: string, onDone: () => void) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: Partial<ConnectionInput>) => api.patch(`/api/connections/${encodeURIComponent(id)}`, input, parseRow),
    meta: { toast: false },
    onSuccess: () => {
      toast.success('Connection updated successfully');
      onDone();
      return invalidate();
    },
  });
}

/** DELETE /api/connections/{id}; spec §8: '{name} deleted successfully'. `onDone` runs before the refetch. */
export function useDeleteConnection(id: string, name: string, onDone: () => void) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.delete(`/api/connections/${encodeURIComponent(id)}`, () => undefined),
    onSuccess: () => {
      toast.success(`${name} deleted successfully`);
      onDone();
      return invalidate();
    },
  });
}

/** POST /api/connection/test/{id}: the server gives the test 10 s; the request waits a little longer. */
export function useTestConnection(id: string) {
  return useMutation({
    mutationFn: () => api.post(`/api/connection/test/${encodeURIComponent(id)}`, {}, testResultSchema.parse, { timeoutMs: 20_000 }),
    meta: { toast: false },
  });
}
