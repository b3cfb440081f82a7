import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { fail, notificationKeys } from './rules';
import { HISTORY_COLUMNS, historyRowSchema } from './schema';

export interface HistoryQuery {
  /** One rule's history, or one resource's. */
  notificationId?: string;
  resourceId?: string;
  statuses: readonly string[];
  /** Resource name contains this. */
  search: string;
  from: string | null;
  to: string | null;
  pageIndex: number;
  pageSize: number;
}

/** One page of send history, newest first, with the exact total (spec §7: count=exact). */
export function useSendHistory(query: HistoryQuery, enabled = true) {
  return useQuery({
    queryKey: notificationKeys.history(query),
    enabled,
    queryFn: async ({ signal }) => {
      let request = db.from('notification_send_history_summary').select(HISTORY_COLUMNS, { count: 'exact' });
      if (query.notificationId) request = request.eq('notification_id', query.notificationId);
      if (query.resourceId) request = request.eq('resource_id', query.resourceId);
      if (query.statuses.length > 0) request = request.in('status', [...query.statuses]);
      const search = query.search.trim();
      if (search !== '') request = request.ilike('resource->>name', `*${search}*`);
      if (query.from) request = request.gte('created_at', query.from);
      if (query.to) request = request.lte('created_at', query.to);
      const first = query.pageIndex * query.pageSize;
      const { data, error, count } = await request
        .order('created_at', { ascending: false })
        .order('id')
        .range(first, first + query.pageSize - 1)
        .abortSignal(signal);
      fail(error);
      const rows = z.array(historyRowSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

const named = z.object({ name: z.string().nullish(), type: z.string().nullish() });

/**
 * The name of a resource the history is about: from its latest history row (the name it had when the
 * event came), else from the check, config item or component itself.
 */
export function useResourceName(resourceId: string) {
  return useQuery({
    queryKey: notificationKeys.resourceName(resourceId),
    enabled: resourceId !== '',
    queryFn: async () => {
      const latest = await db.from('notification_send_history_summary').select('resource_type,resource').eq('resource_id', resourceId).order('created_at', { ascending: false }).limit(1).maybeSingle();
      fail(latest.error);
      const row = historyRowSchema.pick({ resource_type: true, resource: true }).nullable().parse(latest.data);
      if (row?.resource?.name) return { name: row.resource.name, kind: row.resource_type ?? row.resource.kind ?? '' };
      for (const [table, kind] of [['checks', 'check'], ['config_items', 'config'], ['components', 'component']] as const) {
        const found = await db.from(table).select('name,type').eq('id', resourceId).maybeSingle();
        if (!found.error && found.data) return { name: named.parse(found.data).name ?? resourceId, kind };
      }
      return { name: resourceId, kind: row?.resource_type ?? '' };
    },
  });
}
