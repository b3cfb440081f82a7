import { Plus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import type { DateFormat } from '@common/constants';
import { formatDate } from '@common/format/date';
import { Page } from '@web/app/layout/page';
import NotFoundPage from '@web/app/pages/not-found-page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useDisplayPreferences } from '@web/lib/preferences';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { Loading } from '@web/ui/primitives/loading';
import { QueryPage } from '@web/ui/query-page';
import { useResourceAccess } from './access';
import { useResourceList } from './queries';
import { findResource, useResourceRegistry } from './registry-context';
import { SourceBadge } from './source-badge';
import type { ResourceAccess, ResourceColumn, ResourceRow, SettingsResource } from './types';
import { useTableParam } from './use-table';
import { NEW_ID } from './new-id';
import { AgentName } from '@web/features/agents/agent-name';
import { rowId, valueToText } from './values';

export default function ResourceListPage() {
  const resource = findResource(useTableParam(), useResourceRegistry());
  // Only registered tables have pages (DESIGN §9: nothing is a stub).
  return resource ? <GuardedList resource={resource} /> : <NotFoundPage />;
}

function GuardedList({ resource }: { resource: SettingsResource }) {
  const access = useResourceAccess(resource);
  if (!access.ready || !access.read) {
    return <Page title={resource.label}>{access.ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  }
  return <ResourceList resource={resource} access={access} />;
}

function Cell({ column, row, dateFormat, timeZone }: { column: ResourceColumn; row: ResourceRow; dateFormat: DateFormat; timeZone: string }) {
  const text = column.value ? column.value(row) : valueToText(row[column.key]);
  if (column.kind === 'date') return formatDate(text, dateFormat, timeZone);
  if (column.kind === 'source') return <SourceBadge source={text} />;
  if (column.kind === 'agent') return <AgentName id={text} />;
  return text;
}

function ResourceList({ resource, access }: { resource: SettingsResource; access: ResourceAccess }) {
  const query = useResourceList(resource);
  const navigate = useNavigate();
  const { dateFormat, timeZone } = useDisplayPreferences();
  const columns: ColumnDef<ResourceRow>[] = resource.columns.map((column) => ({
    id: column.key,
    header: column.header,
    accessorFn: (row) => (column.value ? column.value(row) : valueToText(row[column.key])),
    cell: ({ row }) => <Cell column={column} row={row.original} dateFormat={dateFormat} timeZone={timeZone} />,
  }));
  return (
    <QueryPage
      title={resource.label}
      query={query}
      extra={
        access.create ? (
          <Link to={`/settings/${resource.table}/${NEW_ID}`} className={cn(buttonBase, 'h-8 gap-1.5 bg-blue-600 px-3 text-sm text-white hover:bg-blue-700')}>
            <Plus className="size-4" aria-hidden="true" />
            Add {resource.singular}
          </Link>
        ) : null
      }
    >
      <DataTable
        aria-label={resource.label}
        data={query.data ?? []}
        columns={columns}
        getRowId={(row, index) => rowId(row) || String(index)}
        isLoading={query.isLoading}
        emptyText="No resources found"
        onRowClick={(row) => void navigate(`/settings/${resource.table}/${encodeURIComponent(rowId(row))}`)}
      />
    </QueryPage>
  );
}
