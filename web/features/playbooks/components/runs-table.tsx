import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { DataTable, type ColumnDef, type ServerPagination } from '@web/ui/data-table';
import { DateTime } from '@web/ui/primitives/date-time';
import { PersonCell } from '@web/ui/person-cell';
import type { PlaybookRun } from '../api/schema';
import { playbookPath, runPath } from '../paths';
import { playbookTitle, RunStatusBadge } from './badges';
import { Duration, ResourceLink } from './run-parts';

export interface RunsTableProps {
  rows: PlaybookRun[];
  isLoading: boolean;
  pagination?: ServerPagination;
  /** Leave out the playbook column (a playbook's own page). */
  hidePlaybook?: boolean;
  /** Leave out the resource column (a resource's own page). */
  hideResource?: boolean;
  emptyText?: string;
}

/** Runs, newest first: status, playbook, resource, who, when, how long; a row opens the run. */
export function RunsTable({ rows, isLoading, pagination, hidePlaybook, hideResource, emptyText }: RunsTableProps) {
  const navigate = useNavigate();
  const columns = useMemo((): ColumnDef<PlaybookRun>[] => {
    const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
    const all: (ColumnDef<PlaybookRun> | false | undefined)[] = [
      { id: 'status', header: 'Status', enableSorting: false, cell: ({ row: { original } }) => <RunStatusBadge status={original.status} /> },
      !hidePlaybook && {
        id: 'playbook',
        header: 'Playbook',
        enableSorting: false,
        cell: ({ row: { original } }) =>
          original.playbook ? (
            <Link to={playbookPath(original.playbook.id)} onClick={stop} className="font-medium text-blue-700 hover:underline">
              {playbookTitle(original.playbook)}
            </Link>
          ) : (
            <span className="font-mono text-xs">{original.playbook_id}</span>
          ),
      },
      !hideResource && { id: 'resource', header: 'Resource', enableSorting: false, cell: ({ row: { original } }) => <span onClick={stop} role="presentation"><ResourceLink run={original} /></span> },
      {
        id: 'by',
        header: 'Run by',
        enableSorting: false,
        cell: ({ row: { original } }) =>
          original.person ? <PersonCell name={original.person.name ?? ''} email={original.person.email} avatar={original.person.avatar} /> : <span className="text-slate-500">{original.request?.trigger ? String(original.request.trigger) : 'System'}</span>,
      },
      { id: 'created', header: 'Started', enableSorting: false, cell: ({ row: { original } }) => <DateTime value={original.start_time ?? original.created_at} /> },
      { id: 'duration', header: 'Duration', enableSorting: false, cell: ({ row: { original } }) => <Duration start={original.start_time} end={original.end_time} /> },
      {
        id: 'open',
        header: () => <span className="sr-only">Open</span>,
        enableSorting: false,
        cell: ({ row: { original } }) => (
          <Link to={runPath(original.id)} onClick={stop} className="text-xs text-blue-700 hover:underline" aria-label={`Open run ${original.id}`}>
            Open
          </Link>
        ),
      },
    ];
    return all.filter((column): column is ColumnDef<PlaybookRun> => Boolean(column));
  }, [hidePlaybook, hideResource]);
  return (
    <DataTable
      aria-label="Playbook runs"
      data={rows}
      columns={columns}
      getRowId={(row) => row.id}
      isLoading={isLoading}
      emptyText={emptyText ?? 'No data available'}
      onRowClick={(row) => void navigate(runPath(row.id))}
      {...(pagination ? { pagination } : {})}
    />
  );
}
