import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { ilikeAny } from '@web/lib/search';
import { toast } from '@web/lib/toast';
import { fail, notificationKeys } from './rules';
import { SILENCE_COLUMNS, previewSchema, silenceSchema, type Silence } from './schema';

export function useSilences() {
  return useQuery({
    queryKey: notificationKeys.silences,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('notification_silences').select(SILENCE_COLUMNS).is('deleted_at', null).order('created_at', { ascending: false }).limit(1000).abortSignal(signal);
      fail(error);
      return z.array(silenceSchema).parse(data ?? []);
    },
  });
}

export type TargetKind = 'check' | 'config' | 'component';
export const TARGET_TABLES: Readonly<Record<TargetKind, 'checks' | 'config_items' | 'components'>> = { check: 'checks', config: 'config_items', component: 'components' };

export interface Target {
  id: string;
  kind: TargetKind;
  name: string;
  type: string;
}

const targetRow = z.object({ id: z.string(), name: z.string().nullish(), type: z.string().nullish() });

/** The checks, config items and components the silences name, by id (for their names and links). */
export function useSilenceTargets(silences: readonly Silence[] | undefined) {
  const ids = {
    check: [...new Set((silences ?? []).flatMap((s) => (s.check_id ? [s.check_id] : [])))],
    config: [...new Set((silences ?? []).flatMap((s) => (s.config_id ? [s.config_id] : [])))],
    component: [...new Set((silences ?? []).flatMap((s) => (s.component_id ? [s.component_id] : [])))],
  };
  const all = [...ids.check, ...ids.config, ...ids.component].sort();
  return useQuery({
    queryKey: notificationKeys.silenceTargets(all),
    enabled: all.length > 0,
    queryFn: async () => {
      const out = new Map<string, Target>();
      for (const kind of ['check', 'config', 'component'] as const) {
        if (ids[kind].length === 0) continue;
        const { data, error } = await db.from(TARGET_TABLES[kind]).select('id,name,type').in('id', ids[kind]);
        // A resource this person may not read is shown by its id.
        if (error) continue;
        for (const row of z.array(targetRow).parse(data ?? [])) out.set(row.id, { id: row.id, kind, name: row.name ?? row.id, type: row.type ?? '' });
      }
      return out;
    },
  });
}

/** Spec §9: resource search waits 300 ms; up to 20 matches by name. */
export function useTargetSearch(kind: TargetKind, text: string) {
  return useQuery({
    queryKey: notificationKeys.resourceSearch(kind, text),
    enabled: text.trim() !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from(TARGET_TABLES[kind]).select('id,name,type').or(ilikeAny(['name'], text.trim())).is('deleted_at', null).order('name').limit(20).abortSignal(signal);
      fail(error);
      return z.array(targetRow).parse(data ?? []).map((row): Target => ({ id: row.id, kind, name: row.name ?? row.id, type: row.type ?? '' }));
    },
    placeholderData: keepPreviousData,
  });
}

export interface SilenceInput {
  description?: string;
  from?: string;
  until: string | null;
  recursive?: boolean;
  config_id?: string;
  check_id?: string;
  component_id?: string;
  filter?: string;
}

/** POST /api/notification/silence/preview: the last 7 days' sends it would have silenced. */
export function useSilencePreview(body: SilenceInput | null) {
  return useQuery({
    queryKey: notificationKeys.preview(body),
    enabled: body !== null,
    queryFn: ({ signal }) => api.post('/api/notification/silence/preview', { ...body, until: body?.until ?? 'indefinitely' }, previewSchema.parse, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

function useInvalidateSilences() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: notificationKeys.silences });
}

/** POST /api/notification/silence; a 400 is shown at the form's fields. */
export function useCreateSilence() {
  const invalidate = useInvalidateSilences();
  return useMutation({
    mutationFn: (body: SilenceInput) => api.post('/api/notification/silence', { ...body, until: body.until ?? 'indefinitely' }, z.object({ id: z.string() }).passthrough().parse),
    meta: { toast: false },
    onSuccess: () => {
      toast.success('Silence created successfully');
      return invalidate();
    },
  });
}

/** Ends a silence now (PATCH until of /api/db/notification_silences, allowed for source=UI rows). */
export function useEndSilence() {
  const invalidate = useInvalidateSilences();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error } = await db.from('notification_silences').update({ until: new Date().toISOString() }).eq('id', id);
      fail(error);
    },
    onSuccess: () => {
      toast.success('Silence updated successfully');
      return invalidate();
    },
  });
}

/** DELETE /api/notification/silence/{id}; spec §8: '{resource} deleted successfully'. */
export function useDeleteSilence() {
  const invalidate = useInvalidateSilences();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/notification/silence/${encodeURIComponent(id)}`, () => undefined),
    onSuccess: () => {
      toast.success('Silence deleted successfully');
      return invalidate();
    },
  });
}

/** One check, config item or component by id (a silence started from its page names it in the URL). */
export function useTarget(kind: TargetKind | undefined, id: string | undefined) {
  return useQuery({
    queryKey: [...notificationKeys.silenceTargets([id ?? '']), kind],
    enabled: Boolean(kind && id),
    queryFn: async () => {
      if (!kind || !id) return null;
      const { data, error } = await db.from(TARGET_TABLES[kind]).select('id,name,type').eq('id', id).maybeSingle();
      fail(error);
      const row = targetRow.nullable().parse(data);
      return row ? { id: row.id, kind, name: row.name ?? row.id, type: row.type ?? '' } : null;
    },
  });
}
