import type { PostgrestClient } from '@supabase/postgrest-js';
import { ilikeAny } from '@web/lib/search';
import type { ConnectionFilters } from './filters';
import { CONNECTION_COLUMNS } from './schema';

export type ConnectionsQuery = Omit<ConnectionFilters, 'pageSize'> & { pageSize: number };

/** One page of connections with the exact total (spec §7: count=exact, read from Content-Range). */
export function buildConnectionsQuery(client: PostgrestClient, query: ConnectionsQuery) {
  let request = client.from('connections').select(CONNECTION_COLUMNS, { count: 'exact' });
  const search = query.search.trim();
  if (search !== '') request = request.or(ilikeAny(['name', 'url'], search));
  if (query.type !== '') request = request.eq('type', query.type);
  const first = query.pageIndex * query.pageSize;
  // The id breaks ties, so a page boundary never shows a connection twice or skips one.
  return request
    .order(query.sortBy, { ascending: query.sortOrder === 'asc', nullsFirst: false })
    .order('id')
    .range(first, first + query.pageSize - 1);
}
