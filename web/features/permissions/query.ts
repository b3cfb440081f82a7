import type { PostgrestClient } from '@supabase/postgrest-js';
import { ilikeAny } from '@web/lib/search';
import type { PermissionFilters } from './filters';
import { PERMISSION_COLUMNS } from './schema';

/** Columns the search box looks in: who, what, which action and the description. */
const SEARCHED = ['description', 'name', 'object', 'action', 'subject', 'group', 'person->>name', 'person->>email', 'team->>name'];

/** A PostgREST `or` value matching the text anywhere in the searched columns (quoted, so commas stay text). */
export function searchFilter(text: string): string | undefined {
  const term = text.trim();
  return term === '' ? undefined : ilikeAny(SEARCHED, term);
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
