import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAccess } from '@web/app/session';
import { Ago } from '@web/features/catalog-activity/components/ago';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingFromParams, sortingToParams, type ColumnDef } from '@web/ui/data-table';
import { Badge, type BadgeTone } from '@web/ui/primitives/badge';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { FilterSelect } from '@web/ui/filter-select';
import { QueryPage } from '@web/ui/query-page';
import { SearchBox } from '@web/ui/search-box';
import { AddIntegrationModal } from './add-integration-modal';
import { INTEGRATION_TYPE_INFO, INTEGRATION_TYPES, integrationPath, isIntegrationType } from './catalog';
import { useIntegrations, type IntegrationRow } from './queries';

const LOCAL_AGENT = '00000000-0000-0000-0000-000000000000';
const SORTABLE = ['name', 'integration_type', 'namespace', 'source', 'agent', 'health', 'last_run'] as const;

const HEALTH_TONE: Readonly<Record<string, BadgeTone>> = { healthy: 'success', unhealthy: 'danger', warning: 'warning' };
const STATUS_COLOUR: Readonly<Record<string, string>> = {
  SUCCESS: 'text-green-700',
  FAILED: 'text-red-700',
  WARNING: 'text-amber-700',
  RUNNING: 'text-blue-700',
  STOPPED: 'text-slate-600',
  SKIPPED: 'text-slate-500',
};

export function agentName(row: IntegrationRow): string {
  if (row.agent_id === LOCAL_AGENT) return 'local';
  return row.agent?.name ?? row.agent_id;
}

/** The type icon and name, and what kind of it (a scraper's types, a connection's type, …) beside. */
function TypeCell({ type, kind }: { type: string; kind: string | null }) {
  if (!isIntegrationType(type)) return <span>{type}</span>;
  const info = INTEGRATION_TYPE_INFO[type];
  const Icon = info.icon;
  return (
    // One line each (issue 38 item 12): rows keep an even height; a wide table scrolls with its cue.
    <span className="flex items-center gap-1.5 whitespace-nowrap" title={info.singular}>
      <Icon className="size-4 shrink-0 text-slate-600" aria-hidden="true" />
      <span>{info.singular}</span>
      {kind ? <span className="text-xs text-slate-500">{kind.split(',').join(', ')}</span> : null}
    </span>
  );
}

function LastRun({ row }: { row: IntegrationRow }) {
  if (!row.job_time_start) return <span className="text-slate-400">never</span>;
  const status = row.job_status ?? '';
  return (
    <span className={cn('flex flex-col', STATUS_COLOUR[status] ?? 'text-slate-700')} title={row.job_error ?? undefined}>
      <span>
        <Ago value={row.job_time_start} /> {status ? <span className="text-xs font-medium">{status}</span> : null}
      </span>
      {row.job_error ? <span className="max-w-64 truncate text-xs text-red-700">{row.job_error}</span> : null}
    </span>
  );
}

function columns(): ColumnDef<IntegrationRow>[] {
  return [
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <Link
          to={integrationPath(row.original.integration_type, row.original.id)}
          onClick={(event) => event.stopPropagation()}
          className="flex items-center gap-2 whitespace-nowrap font-medium text-blue-700 hover:underline"
        >
          {row.original.name}
        </Link>
      ),
    },
    { id: 'integration_type', accessorKey: 'integration_type', header: 'Type', cell: ({ row }) => <TypeCell type={row.original.integration_type} kind={row.original.type} /> },
    { id: 'namespace', accessorKey: 'namespace', header: 'Namespace' },
    { id: 'source', accessorKey: 'source', header: 'Source', cell: ({ row }) => <SourceBadge source={row.original.source} /> },
    { id: 'agent', header: 'Agent', accessorFn: agentName },
    {
      id: 'health',
      accessorKey: 'health',
      header: 'Health',
      cell: ({ row }) => <Badge tone={HEALTH_TONE[row.original.health] ?? 'neutral'}>{row.original.health}</Badge>,
    },
    { id: 'last_run', header: 'Last Run', accessorFn: (row) => row.job_time_start ?? '', cell: ({ row }) => <LastRun row={row.original} /> },
  ];
}

function matches(row: IntegrationRow, search: string): boolean {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${row.name} ${row.namespace} ${row.type ?? ''} ${row.integration_type} ${row.source}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * Spec §2 /settings/integrations: every scraper, topology, health check, connection, notification and
 * log backend with its health and last run (spec §7 /integrations_with_status). Search, type filter and
 * sort live in the URL; a row opens /settings/integrations/{type}/{id}.
 */
export default function IntegrationsPage() {
  const query = useIntegrations();
  const navigate = useNavigate();
  const { can } = useAccess();
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const search = read.search ?? '';
  const type = pickOption(read.type, ['all', ...INTEGRATION_TYPES], 'all');
  const sorting = sortingFromParams(read.sortBy, read.sortOrder, SORTABLE);
  const [adding, setAdding] = useState(false);
  const tableColumns = useMemo(columns, []);
  const rows = useMemo(() => (query.data ?? []).filter((row) => (type === 'all' || row.integration_type === type) && matches(row, search)), [query.data, type, search]);
  const canWrite = can('integrations', 'write');
  const hasRows = (query.data ?? []).length > 0;

  return (
    <QueryPage
      title="Integrations"
      query={query}
      extra={
        canWrite ? (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <Plus className="size-4" aria-hidden="true" />
            Add Integration
          </Button>
        ) : null
      }
      toolbar={
        <div className="flex flex-wrap items-center gap-3">
          <SearchBox label="Search integrations" value={search} placeholder="Search by name, namespace or type" onCommit={(text) => setParams((current) => patchSearchParams(current, { search: text || undefined }))} />
          <FilterSelect
            label="Type"
            value={type}
            options={[{ value: 'all', label: 'All' }, ...INTEGRATION_TYPES.map((value) => ({ value, label: INTEGRATION_TYPE_INFO[value].label }))]}
            onChange={(value) => setParams((current) => patchSearchParams(current, { type: value }, { type: 'all' }))}
          />
        </div>
      }
    >
      <DataTable
        aria-label="Integrations"
        data={rows}
        columns={tableColumns}
        getRowId={(row) => `${row.integration_type}/${row.id}`}
        isLoading={query.isLoading}
        emptyText={hasRows ? 'No data available' : 'No resources found'}
        sorting={sorting}
        onSortingChange={(next) => setParams((current) => patchSearchParams(current, { sortBy: undefined, sortOrder: undefined, ...sortingToParams(next) }))}
        onRowClick={(row) => void navigate(integrationPath(row.integration_type, row.id))}
      />
      {canWrite ? <AddIntegrationModal open={adding} onOpenChange={setAdding} /> : null}
    </QueryPage>
  );
}
