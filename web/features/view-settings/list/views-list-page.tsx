import { formatDate, formatRelative } from '@common/format';
import { Plus, Table2, X } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { viewIcon } from '@web/app/layout/sidebar-views';
import { useAccess } from '@web/app/session';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { useDisplayPreferences } from '@web/lib/preferences';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, usePersistedPageSize, type ColumnDef, type SortingState } from '@web/ui/data-table';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { SearchBox } from '@web/ui/search-box';
import type { ViewSummary } from '../api/schema';
import { SORTABLE, type SortColumn } from '../api/keys';
import { useViewList } from '../api/views';
import { NEW_VIEW_PATH, viewPagePath, viewSettingsPath } from '../paths';

function ViewName({ view }: { view: ViewSummary }) {
  const Icon = viewIcon(view.icon);
  return (
    <span className="flex items-center gap-2">
      <Icon className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
      <Link to={viewSettingsPath(view.id)} className="font-medium text-blue-700 hover:underline" onClick={(event) => event.stopPropagation()}>
        {view.name}
      </Link>
    </span>
  );
}

/** After a save the list offers the saved view (?saved={id}); the note goes when dismissed. */
function SavedNote({ id, onDismiss }: { id: string; onDismiss: () => void }) {
  return (
    <div role="status" className="flex items-center gap-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
      <span className="flex-1">The view is saved.</span>
      <Link to={viewPagePath(id)} className={cn(buttonBase, 'h-7 border border-green-300 bg-white px-2.5 text-sm text-green-900 hover:bg-green-100')}>
        Open view
      </Link>
      <button type="button" aria-label="Dismiss" onClick={onDismiss} className="rounded p-1 text-green-800 hover:bg-green-100">
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/** Spec §2 /settings/views: the views with search, sort and paging; a row opens its editor. */
export default function ViewsListPage() {
  const { can } = useAccess();
  const navigate = useNavigate();
  const { dateFormat, timeZone } = useDisplayPreferences();
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const [storedSize] = usePersistedPageSize();
  const search = read.q ?? '';
  const sortBy: SortColumn = pickOption(read.sortBy, SORTABLE, 'name');
  const desc = read.sortOrder === 'desc';
  const pageIndex = readInteger(read.page, 0);
  const pageSize = readInteger(read.pageSize, storedSize, { min: 1, max: 1000 });
  const list = useViewList({ search, sortBy, desc, pageIndex, pageSize });
  const canCreate = can('views', 'create');
  const sorting: SortingState = [{ id: sortBy, desc }];
  const empty = !list.isPending && !list.error && search === '' && (list.data?.total ?? 0) === 0;

  const columns = useMemo(
    (): ColumnDef<ViewSummary>[] => [
      { id: 'name', header: 'Name', cell: ({ row: { original } }) => <ViewName view={original} /> },
      { id: 'namespace', header: 'Namespace', cell: ({ row: { original } }) => original.namespace },
      { id: 'title', header: 'Title', cell: ({ row: { original } }) => original.title ?? <span className="text-slate-400">—</span> },
      { id: 'sidebar', header: 'Sidebar', cell: ({ row: { original } }) => (original.sidebar ? 'Yes' : 'No') },
      { id: 'source', header: 'Source', cell: ({ row: { original } }) => <SourceBadge source={original.source ?? ''} /> },
      {
        id: 'last_ran',
        header: 'Last refreshed',
        cell: ({ row: { original } }) => (original.last_ran ? <span title={original.last_ran}>{formatRelative(original.last_ran)} ago</span> : <span className="text-slate-400">Never</span>),
      },
      { id: 'updated_at', header: 'Updated', cell: ({ row: { original } }) => formatDate(original.updated_at ?? original.created_at ?? '', dateFormat, timeZone) },
    ],
    [dateFormat, timeZone],
  );

  const addButton = canCreate ? (
    <Button variant="primary" size="sm" onClick={() => void navigate(NEW_VIEW_PATH)}>
      <Plus className="size-4" aria-hidden="true" />
      Add view
    </Button>
  ) : null;

  return (
    <Page title="Views" extra={empty ? null : addButton} onRefresh={() => void list.refetch()} refreshing={list.isFetching}>
      <div className="flex flex-col gap-4">
        {read.saved ? <SavedNote id={read.saved} onDismiss={() => setParams((current) => patchSearchParams(current, { saved: undefined }))} /> : null}
        {empty ? null : (
          <div role="search" aria-label="View filters" className="flex flex-wrap items-center gap-3">
            <SearchBox label="Search views" placeholder="Name, namespace or title" value={search} onCommit={(q) => setParams((current) => patchSearchParams(current, { q, page: undefined }))} />
          </div>
        )}
        {list.error ? (
          <p role="alert" className="text-sm text-red-600">
            {list.error.message}
          </p>
        ) : null}
        {empty ? (
          <div className="rounded-lg border border-slate-200 bg-white">
            <EmptyState
              icon={<Table2 className="size-5" aria-hidden="true" />}
              title="No views yet"
              description={
                <>
                  A view is a table (and panels) filled by queries over the catalog, changes, SQL or HTTP, shown in the sidebar or on catalog items. Add one by applying a file of{' '}
                  <code className="rounded bg-slate-100 px-1">kind: View</code> with <code className="rounded bg-slate-100 px-1">watchkeeper apply -f view.yaml</code>
                  {canCreate ? ', or write one here.' : '.'}
                </>
              }
              action={addButton ?? undefined}
            />
          </div>
        ) : (
          <DataTable
            aria-label="Views"
            data={list.data?.rows ?? []}
            columns={columns}
            getRowId={(row) => row.id}
            isLoading={list.isPending}
            emptyText={search ? 'No views match this search' : 'No resources found'}
            onRowClick={(row) => void navigate(viewSettingsPath(row.id))}
            manualSorting
            sorting={sorting}
            onSortingChange={(next) => {
              const first = next[0];
              setParams((current) =>
                patchSearchParams(current, { sortBy: first?.id ?? undefined, sortOrder: first ? (first.desc ? 'desc' : 'asc') : undefined, page: undefined }, { sortBy: 'name', sortOrder: 'asc' }),
              );
            }}
            pagination={{
              pageIndex,
              pageSize,
              totalRows: list.data?.total ?? 0,
              onChange: (next) => setParams((current) => patchSearchParams(current, { page: String(next.pageIndex), pageSize: String(next.pageSize) }, { page: '0' })),
            }}
          />
        )}
      </div>
    </Page>
  );
}
