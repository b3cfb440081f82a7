import { INCIDENT_SEVERITIES, INCIDENT_STATUSES, INCIDENT_TYPES, incidentLabel } from '@common/incidents';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { FilterSelect } from '@web/ui/filter-select';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, readStoredPageSize, sortingToParams, type ColumnDef, type SortingState } from '@web/ui/data-table';
import { PersonCell } from '@web/ui/person-cell';
import { Button } from '@web/ui/primitives/button';
import { DateTime } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { SearchBox } from '@web/ui/search-box';
import { incidentKeys, useIncidentList, type IncidentRow } from '../api';
import { IncidentStatusBadge, SeverityBadge } from '../components/badges';
import { CreateIncidentDialog } from './create-incident-dialog';
import { activeFilters, applyFilter, applyView, listQuery, parseIncidentFilters, STATUS_ACTIVE, type FilterPatch } from './filters';
import { useCommanders, useIncidentComponents } from './lookups';

const COLUMNS: ColumnDef<IncidentRow>[] = [
  {
    accessorKey: 'incident_id',
    header: 'ID',
    cell: ({ row }) => (
      <Link to={`/incidents/${row.original.id}`} onClick={(event) => event.stopPropagation()} className="whitespace-nowrap font-mono text-xs font-medium text-blue-700 hover:underline">
        {row.original.incident_id}
      </Link>
    ),
  },
  { accessorKey: 'title', header: 'Title', cell: ({ row }) => <span className="line-clamp-2 max-w-md font-medium text-slate-900">{row.original.title}</span> },
  { accessorKey: 'severity', header: 'Severity', cell: ({ row }) => <SeverityBadge severity={row.original.severity} /> },
  { accessorKey: 'status', header: 'Status', cell: ({ row }) => <IncidentStatusBadge status={row.original.status} /> },
  { accessorKey: 'type', header: 'Type', cell: ({ row }) => <span className="whitespace-nowrap text-slate-700">{incidentLabel(row.original.type)}</span> },
  {
    id: 'commander',
    header: 'Commander',
    enableSorting: false,
    cell: ({ row }) => (row.original.commander ? <PersonCell name={row.original.commander.name ?? ''} email={row.original.commander.email} avatar={row.original.commander.avatar ?? null} /> : <span className="text-slate-400">None</span>),
  },
  {
    id: 'responders',
    header: 'Responders',
    enableSorting: false,
    cell: ({ row }) => <span className="text-slate-700">{row.original.responders.map((responder) => responder.name).filter(Boolean).join(', ') || '—'}</span>,
  },
  { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <DateTime value={row.original.created_at} className="whitespace-nowrap" /> },
  { accessorKey: 'updated_at', header: 'Updated', cell: ({ row }) => <DateTime value={row.original.updated_at} className="whitespace-nowrap" /> },
];

const ALL = { value: '', label: 'All' };
const options = (values: readonly string[]) => values.map((value) => ({ value, label: incidentLabel(value) }));

/** Spec §2 /incidents: the incidents, filtered, searched, sorted and paged on the server, and 'New incident'. */
export default function IncidentsPage() {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseIncidentFilters(params, readStoredPageSize()), [params]);
  const list = useIncidentList(listQuery(filters));
  const commanders = useCommanders();
  const components = useIncidentComponents();
  const access = useAccess();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const canCreate = access.can('incident', 'create');
  const change = (patch: FilterPatch) => setParams((current) => applyFilter(current, patch));
  const onSortingChange = (next: SortingState) => {
    const sort = next.length === 0 ? { sortBy: 'created_at', sortOrder: filters.sortOrder === 'desc' ? ('asc' as const) : ('desc' as const) } : sortingToParams(next);
    setParams((current) => applyView(current, { sortBy: sort.sortBy, sortOrder: sort.sortOrder, pageIndex: undefined }));
  };
  const filtered = activeFilters(filters) > 0;
  const withCurrent = (rows: { id: string; name: string }[] | undefined, current: string | undefined) =>
    current && !(rows ?? []).some((row) => row.id === current) ? [...(rows ?? []), { id: current, name: current }] : (rows ?? []);

  return (
    <Page
      title="Incidents"
      onRefresh={() => void client.invalidateQueries({ queryKey: incidentKeys.all })}
      refreshing={list.isFetching}
      extra={
        canCreate ? (
          <Button variant="primary" size="sm" className="ml-auto" onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden="true" />
            New incident
          </Button>
        ) : null
      }
    >
      <div className="flex flex-col gap-3">
        <div role="search" aria-label="Incident filters" className="flex flex-wrap items-center gap-3">
          <SearchBox label="Search incidents" value={filters.search} onCommit={(search) => change({ search })} placeholder="Search by title or ID" />
          <FilterSelect label="Status" value={filters.status ?? ''} options={[ALL, { value: STATUS_ACTIVE, label: 'Active' }, ...options(INCIDENT_STATUSES)]} onChange={(status) => change({ status })} />
          <FilterSelect label="Severity" value={filters.severity ?? ''} options={[ALL, ...options(INCIDENT_SEVERITIES)]} onChange={(severity) => change({ severity })} />
          <FilterSelect label="Type" value={filters.type ?? ''} options={[ALL, ...options(INCIDENT_TYPES)]} onChange={(type) => change({ type })} />
          <FilterSelect
            label="Owner"
            value={filters.owner ?? ''}
            options={[{ value: '', label: 'Anyone' }, ...withCurrent(commanders.data, filters.owner).map((person) => ({ value: person.id, label: person.name }))]}
            onChange={(owner) => change({ owner })}
          />
          <FilterSelect
            label="Component"
            value={filters.component ?? ''}
            options={[ALL, ...withCurrent(components.data, filters.component).map((component) => ({ value: component.id, label: component.name }))]}
            onChange={(component) => change({ component })}
          />
          {filtered ? (
            <Button size="sm" variant="ghost" onClick={() => setParams((current) => applyFilter(current, { status: undefined, severity: undefined, type: undefined, owner: undefined, component: undefined, search: undefined }))}>
              Clear filters
            </Button>
          ) : null}
          <span role="status" className="ml-auto text-sm text-slate-600">
            {list.data ? `${list.data.total} ${list.data.total === 1 ? 'incident' : 'incidents'}` : ''}
          </span>
        </div>
        {list.error ? (
          <p role="alert" className="text-sm text-red-600">
            {list.error.message}
          </p>
        ) : null}
        {list.data && list.data.total === 0 && !list.isFetching && !filtered ? (
          <EmptyState
            title="No incidents"
            description="When something breaks, open an incident here or attach a failing check, a config change or an insight as evidence from its page."
            action={canCreate ? <Button variant="primary" onClick={() => setCreating(true)}>New incident</Button> : undefined}
          />
        ) : (
          <DataTable
            aria-label="Incidents"
            data={list.data?.rows ?? []}
            columns={COLUMNS}
            getRowId={(row) => row.id}
            isLoading={list.isLoading}
            emptyText="No incidents match these filters"
            manualSorting
            sorting={[{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }]}
            onSortingChange={onSortingChange}
            onRowClick={(row) => void navigate(`/incidents/${row.id}`)}
            pagination={{
              pageIndex: filters.pageIndex,
              pageSize: filters.pageSize,
              totalRows: list.data?.total ?? 0,
              onChange: (next) => setParams((current) => applyView(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
            }}
          />
        )}
      </div>
      <CreateIncidentDialog open={creating} onOpenChange={setCreating} />
    </Page>
  );
}
