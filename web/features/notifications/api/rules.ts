import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { NOTIFICATIONS_FETCH_LIMIT } from '@common/constants';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { ilikeAny } from '@web/lib/search';
import { toast } from '@web/lib/toast';
import { RULE_SUMMARY_COLUMNS, SUMMARY_EMBEDS, rangeCountsSchema, ruleSchema, ruleSummarySchema, saveAnswerSchema } from './schema';

export const notificationKeys = {
  all: ['notifications'] as const,
  rules: (search: string) => ['notifications', 'rules', search] as const,
  rule: (id: string) => ['notifications', 'rule', id] as const,
  ruleSummary: (id: string) => ['notifications', 'rule-summary', id] as const,
  counts: (from: string, to: string) => ['notifications', 'counts', from, to] as const,
  history: (query: unknown) => ['notifications', 'history', query] as const,
  resourceName: (id: string) => ['notifications', 'resource-name', id] as const,
  silences: ['notifications', 'silences'] as const,
  silenceTargets: (ids: readonly string[]) => ['notifications', 'silence-targets', ids] as const,
  preview: (body: unknown) => ['notifications', 'silence-preview', body] as const,
  resourceSearch: (kind: string, text: string) => ['notifications', 'resource-search', kind, text] as const,
};

export function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

/** The rules, up to spec §9's notifications list fetch of 1000; sorted and paged on the page. */
export function useRules(search: string) {
  return useQuery({
    queryKey: notificationKeys.rules(search),
    queryFn: async ({ signal }) => {
      let request = db.from('notifications_summary').select(`${RULE_SUMMARY_COLUMNS},${SUMMARY_EMBEDS}`).is('deleted_at', null);
      if (search.trim() !== '') request = request.or(ilikeAny(['name', 'namespace'], search.trim()));
      const { data, error } = await request.order('name').limit(NOTIFICATIONS_FETCH_LIMIT).abortSignal(signal);
      fail(error);
      return z.array(ruleSummarySchema).parse(data ?? []);
    },
    placeholderData: keepPreviousData,
  });
}

export function useRuleSummary(id: string) {
  return useQuery({
    queryKey: notificationKeys.ruleSummary(id),
    enabled: id !== '',
    queryFn: async () => {
      const { data, error } = await db.from('notifications_summary').select(`${RULE_SUMMARY_COLUMNS},${SUMMARY_EMBEDS}`).eq('id', id).is('deleted_at', null).maybeSingle();
      fail(error);
      return data === null ? null : ruleSummarySchema.parse(data);
    },
  });
}

/** The whole rule with its spec as written (the editor's text). */
export function useRule(id: string | undefined) {
  return useQuery({
    queryKey: notificationKeys.rule(id ?? ''),
    enabled: Boolean(id),
    queryFn: async () => {
      const { data, error } = await db.from('notifications').select('id,name,namespace,labels,spec,source,disabled,error').eq('id', id ?? '').is('deleted_at', null).maybeSingle();
      fail(error);
      return data === null ? null : ruleSchema.parse(data);
    },
  });
}

/** Sent, failed and pending of every rule over the chosen range (POST /api/notification/summary). */
export function useRangeCounts(range: { from: Date; to: Date } | null) {
  const from = range?.from.toISOString() ?? '';
  const to = range?.to.toISOString() ?? '';
  return useQuery({
    queryKey: notificationKeys.counts(from, to),
    enabled: range !== null,
    queryFn: ({ signal }) => api.post('/api/notification/summary', { from, to }, rangeCountsSchema.parse, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: notificationKeys.all });
}

export interface RuleWrite {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** POST /api/notifications (new) or PUT /api/notifications/{id}; a 400 is shown in the editor, not toasted. */
export function useSaveRule(id: string | undefined) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (write: RuleWrite) =>
      id
        ? api.put(`/api/notifications/${encodeURIComponent(id)}`, { spec: write.spec, labels: write.labels }, saveAnswerSchema.parse)
        : api.post('/api/notifications', write, saveAnswerSchema.parse),
    meta: { toast: false },
    onSuccess: () => invalidate(),
  });
}

/** PATCH /api/notifications/{id} {disabled}; spec §8: 'Notification updated successfully'. */
export function useSetRuleDisabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) => api.patch(`/api/notifications/${encodeURIComponent(id)}`, { disabled }, () => undefined),
    onSuccess: () => {
      toast.success('Notification updated successfully');
      return invalidate();
    },
  });
}

/** DELETE /api/notifications/{id}; spec §8: '{name} deleted successfully'. */
export function useDeleteRule() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) => api.delete(`/api/notifications/${encodeURIComponent(id)}`, () => undefined),
    onSuccess: (_data, { name }) => {
      toast.success(`${name} deleted successfully`);
      return invalidate();
    },
  });
}
