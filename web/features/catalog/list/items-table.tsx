import { useNavigate } from 'react-router';
import { AgentName } from '@web/features/agents/agent-name';
import { DataTable, type ColumnDef, type PaginationState, type SortingState } from '@web/ui/data-table';
import { Badge } from '@web/ui/primitives/badge';
import { DateTime } from '@web/ui/primitives/date-time';
import type { ConfigListItem } from '../api/schema';
import { ConfigHealthBadge } from '../components/config-health';
import { configHref, ConfigLink } from '../components/config-link';
import { KeyValueList } from '../components/config-tags';

/** Tags shown in a cell before '+N more'. */
const CELL_TAGS = 2;

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** The item's agent: 'local' for this instance, else the agent's name (issue 23). */
const AGENT_COLUMN: ColumnDef<ConfigListItem> = { id: 'agent', header: 'Agent', enableSorting: false, cell: ({ row }) => <AgentName id={row.original.agent_id} /> };

const COLUMNS: ColumnDef<ConfigListItem>[] = [
  { accessorKey: 'name', header: 'Name', cell: ({ row }) => <ConfigLink config={row.original} onClick={stop} className="max-w-80" /> },
  { accessorKey: 'type', header: 'Type', cell: ({ row }) => <span className="whitespace-nowrap text-slate-700">{row.original.type}</span> },
  { accessorKey: 'health', header: 'Health', cell: ({ row }) => <ConfigHealthBadge health={row.original.health} /> },
  { accessorKey: 'status', header: 'Status', cell: ({ row }) => <span className="text-slate-700">{row.original.status ?? ''}</span> },
  { id: 'tags', header: 'Tags', enableSorting: false, cell: ({ row }) => <KeyValueList label="Tags" values={row.original.tags} limit={CELL_TAGS} /> },
  { accessorKey: 'changes', header: 'Changes (7d)', cell: ({ row }) => <span className="tabular-nums">{row.original.changes ?? 0}</span> },
  {
    id: 'insights',
    header: 'Insights',
    enableSorting: false,
    cell: ({ row }) => {
      const entries = Object.entries(row.original.analysis);
      return entries.length > 0 ? (
        <span className="flex flex-wrap gap-1">
          {entries.map(([type, n]) => (
            <Badge key={type} tone="warning" className="whitespace-nowrap">
              {type} {n}
            </Badge>
          ))}
        </span>
      ) : null;
    },
  },
  { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <DateTime value={row.original.created_at} className="whitespace-nowrap" /> },
  {
    accessorKey: 'updated_at',
    header: 'Updated',
    cell: ({ row }) =>
      row.original.deleted_at ? (
        <Badge tone="danger">Deleted</Badge>
      ) : (
        <DateTime value={row.original.updated_at} className="whitespace-nowrap" />
      ),
  },
];

export interface ItemsTableProps {
  rows: ConfigListItem[];
  total: number;
  isLoading: boolean;
  sorting: SortingState;
  onSortingChange: (next: SortingState) => void;
  page: PaginationState;
  onPageChange: (next: PaginationState) => void;
  emptyText: string;
  /** Leave out the Type column (the list is of one type). */
  oneType?: boolean;
  /** Add the Agent column (there are agents besides this instance). */
  showAgent?: boolean;
}

/** The items of the filters, a page at a time from the server, sorted there; a row opens its item. */
export function ItemsTable({ rows, total, isLoading, sorting, onSortingChange, page, onPageChange, emptyText, oneType = false, showAgent = false }: ItemsTableProps) {
  const navigate = useNavigate();
  const shown = oneType ? COLUMNS.filter((column) => column.id !== 'type' && !('accessorKey' in column && column.accessorKey === 'type')) : COLUMNS;
  const columns = showAgent ? [...shown.slice(0, -2), AGENT_COLUMN, ...shown.slice(-2)] : shown;
  return (
    <DataTable
      aria-label="Config items"
      data={rows}
      columns={columns}
      getRowId={(row) => row.id}
      isLoading={isLoading}
      emptyText={emptyText}
      manualSorting
      sorting={sorting}
      onSortingChange={onSortingChange}
      onRowClick={(row) => void navigate(configHref(row.id))}
      pagination={{ ...page, totalRows: total, onChange: onPageChange }}
    />
  );
}
