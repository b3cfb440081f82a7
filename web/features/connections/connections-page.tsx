import { Plug, Plus } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { CONNECTION_TYPES } from '@common/connections';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { toast } from '@web/lib/toast';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingToParams, usePersistedPageSize, type SortingState } from '@web/ui/data-table';
import { FilterSelect } from '@web/ui/filter-select';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { QueryPage } from '@web/ui/query-page';
import { SearchBox } from '@web/ui/search-box';
import { connectionColumns } from './columns';
import { applyConnectionsChange, parseConnectionFilters } from './filters';
import { useConnections } from './queries';
import { NEW_CONNECTION_PATH, connectionPath } from './paths';

const TYPE_OPTIONS = [{ value: '', label: 'All' }, ...CONNECTION_TYPES.map((def) => ({ value: def.type, label: def.label })).sort((a, b) => a.label.localeCompare(b.label))];

/** /settings/connections: admin only (spec §6: connections are read and written by admins alone). */
export default function ConnectionsPage() {
  const { ready, can } = useAccess();
  // The route guard says the same; this keeps the page honest wherever it is mounted.
  if (!ready || !can('connections', 'read')) return <Page title="Connections">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <Connections canCreate={can('connections', 'create')} />;
}

function AddLink() {
  return (
    <Link to={NEW_CONNECTION_PATH} className={cn(buttonBase, 'h-8 gap-1.5 bg-blue-600 px-3 text-sm text-white hover:bg-blue-700')}>
      <Plus className="size-4" aria-hidden="true" />
      Add connection
    </Link>
  );
}

function Connections({ canCreate }: { canCreate: boolean }) {
  const navigate = useNavigate();
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseConnectionFilters(params), [params]);
  const [storedSize] = usePersistedPageSize();
  const pageSize = filters.pageSize ?? storedSize;
  const connections = useConnections({ search: filters.search, type: filters.type, sortBy: filters.sortBy, sortOrder: filters.sortOrder, pageIndex: filters.pageIndex, pageSize });

  // Spec §8: a failed connection list load shows an error toast with the message.
  const { error } = connections;
  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const filtered = filters.search !== '' || filters.type !== '';
  const empty = !connections.isLoading && !connections.error && !filtered && (connections.data?.total ?? 0) === 0;

  return (
    <QueryPage
      title="Connections"
      query={connections}
      extra={canCreate && !empty ? <AddLink /> : null}
      toolbar={
        <div role="search" aria-label="Connection filters" className="flex max-w-3xl flex-wrap items-center gap-3">
          <SearchBox label="Search connections" placeholder="Name or URL" value={filters.search} onCommit={(q) => setParams((current) => applyConnectionsChange(current, { q: q || undefined }))} />
          <FilterSelect label="Type" value={filters.type} options={TYPE_OPTIONS} onChange={(type) => setParams((current) => applyConnectionsChange(current, { type: type || undefined }))} />
        </div>
      }
    >
      {empty ? (
        <div className="rounded-lg border border-slate-200 bg-white">
          <EmptyState
            icon={<Plug className="size-5" aria-hidden="true" />}
            title="No connections yet"
            description="A connection keeps the address and credentials of a database, a notification channel or a cloud account, for checks, scrapers and notifications to use by name."
            action={canCreate ? <AddLink /> : undefined}
          />
        </div>
      ) : (
        <DataTable
          aria-label="Connections"
          data={connections.data?.rows ?? []}
          columns={connectionColumns}
          getRowId={(row) => row.id}
          isLoading={connections.isLoading}
          emptyText="No connections match these filters"
          manualSorting
          sorting={sorting}
          onSortingChange={(next) => {
            // Removing the sort returns to the default order (by name).
            setParams((current) => applyConnectionsChange(current, { sortBy: undefined, sortOrder: undefined, ...sortingToParams(next) }));
          }}
          onRowClick={(row) => void navigate(connectionPath(row.id))}
          pagination={{
            pageIndex: filters.pageIndex,
            pageSize,
            totalRows: connections.data?.total ?? 0,
            onChange: (next) => setParams((current) => applyConnectionsChange(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
          }}
        />
      )}
    </QueryPage>
  );
}
