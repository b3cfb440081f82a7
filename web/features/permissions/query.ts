import type { PostgrestClient } from '@supabase/postgrest-js';
import type { PermissionFilters } from './filters';
import { PERMISSION_COLUMNS } from './schema';

/** Columns the search box looks in: who, what, which action and the description. */
const SEARCHED = ['description', 'name', 'object', 'action', 'subject', 'group', 'person->>name', 'person->>email', 'team->>name'];

/**
 * A PostgREST `or` value matching the text anywhere in the searched columns. The text is quoted, so
 * commas and parentheses stay text; quotes and backslashes, which would end the quoting, are dropped.
 */
export function searchFilter(text: string): string | undefined {
  const cleaned = text.replace(/["\\]/g, '').trim();
  if (cleaned === '') return undefined;
  return SEARCHED.map((column) => `${column}.ilike."*${cleaned}*"`).join(',');
}

/** One page of permissions_summary with the total (spec §7: paged, count=exact). */
export function buildPermissionsQuery(client: PostgrestClient, filters: PermissionFilters & { pageSize: number }) {
  let query = client.from('permissions_summary').select(PERMISSION_COLUMNS, { count: 'exact' });
  if (filters.subjectType) query = query.eq('subject_type', filters.subjectType);
  if (filters.effect) query = query.eq('deny', filters.effect === 'deny');
  if (filters.action) query = query.eq('action', filters.action);
  const search = searchFilter(filters.search);
  if (search) query = query.or(search);
  const first = filters.pageIndex * filters.pageSize;
  return query
    .order(filters.sortBy, { ascending: filters.sortOrder === 'asc', nullsFirst: false })
    .order('id')
    .range(first, first + filters.pageSize - 1);
}
