import { formatDuration } from '@common/format';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type ColumnDef, type ServerPagination } from '@web/ui/data-table';
import { DateTime } from '@web/ui/primitives/date-time';
import type { HistoryRow } from '../api/schema';
import { resourceHref } from '../model/format';
import { rulePath } from '../paths';
import { SendStatusBadge } from './badges';

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

function ResourceCell({ row }: { row: HistoryRow }) {
  const kind = row.resource_type ?? row.resource?.kind ?? '';
  const name = row.resource?.name || row.resource_id;
  const href = resourceHref(kind, row.resource_id);
  return (
    <span className="flex min-w-0 flex-col">
      {href ? (
        <Link to={href} onClick={stop} className="truncate text-blue-700 hover:underline">
          {name}
        </Link>
      ) : (
        <span className="truncate">{name}</span>
      )}
      <span className="text-xs text-slate-500">{[kind, row.resource?.type].filter(Boolean).join(' · ')}</span>
    </span>
  );
}

function columnsFor(show: { resource: boolean; rule: boolean }): ColumnDef<HistoryRow>[] {
  const columns: ColumnDef<HistoryRow>[] = [
    { id: 'created_at', header: 'Time', cell: ({ row }) => <DateTime value={row.original.created_at} className="whitespace-nowrap" /> },
    { id: 'source_event', header: 'Event', cell: ({ row }) => <code className="text-xs">{row.original.source_event}</code> },
  ];
  if (show.resource) columns.push({ id: 'resource', header: 'Resource', cell: ({ row }) => <ResourceCell row={row.original} /> });
  if (show.rule) {
    columns.push({
      id: 'notification',
      header: 'Rule',
      cell: ({ row }) => (
        <Link to={rulePath(row.original.notification_id)} onClick={stop} className="text-blue-700 hover:underline">
          {row.original.notification_name ?? row.original.notification_id}
        </Link>
      ),
    });
  }
  columns.push(
    { id: 'status', header: 'Status', cell: ({ row }) => <SendStatusBadge status={row.original.status} /> },
    { id: 'reason', header: 'Reason', cell: ({ row }) => <span className="line-clamp-2 text-slate-700">{row.original.reason ?? ''}</span> },
    { id: 'recipient', header: 'Recipient', cell: ({ row }) => row.original.recipient ?? '' },
    {
      id: 'retries',
      header: 'Retries / Count',
      cell: ({ row }) => (
        <span className="tabular-nums">
          {row.original.retries ?? 0} / {row.original.count ?? 1}
        </span>
      ),
    },
  );
  return columns;
}

/** The rendered message of one send and what went wrong, under the table. */
export function SendDetails({ row, onClose }: { row: HistoryRow; onClose: () => void }) {
  return (
    <section aria-label="Send details" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <div className="flex items-start justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <SendStatusBadge status={row.status} />
          <code className="text-xs">{row.source_event}</code>
          <span className="text-slate-500">
            <DateTime value={row.created_at} />
          </span>
          {row.sent_at ? <span className="text-slate-500">sent <DateTime value={row.sent_at} /></span> : null}
          {row.duration_millis !== null && row.duration_millis !== undefined ? <span className="text-slate-500">in {formatDuration(row.duration_millis)}</span> : null}
          {row.not_before ? <span className="text-slate-500">not before <DateTime value={row.not_before} /></span> : null}
        </div>
        <button type="button" onClick={onClose} className="text-sm text-blue-700 hover:underline">
          Close
        </button>
      </div>
      {row.reason ? <p className="text-slate-700">{row.reason}</p> : null}
      {row.error ? (
        <div>
          <h3 className="text-xs font-medium uppercase text-slate-500">Error</h3>
          <pre className="mt-1 whitespace-pre-wrap break-words rounded-md bg-red-50 p-2 text-xs text-red-800">{row.error}</pre>
        </div>
      ) : null}
      <div>
        <h3 className="text-xs font-medium uppercase text-slate-500">Title</h3>
        <p className="mt-1 whitespace-pre-wrap text-slate-900">{row.title || 'No details found'}</p>
      </div>
      <div>
        <h3 className="text-xs font-medium uppercase text-slate-500">Body</h3>
        <pre className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 text-xs text-slate-800">{row.body || 'No details found'}</pre>
      </div>
    </section>
  );
}

export interface HistoryTableProps {
  rows: HistoryRow[];
  isLoading: boolean;
  showResource?: boolean;
  showRule?: boolean;
  pagination?: ServerPagination;
  /** The open row's id (kept in the URL by the page). */
  openId?: string | undefined;
  onOpen: (id: string | undefined) => void;
  emptyText?: string;
}

/** Send history: one row per event, rule and recipient; a row opens its rendered title, body and error. */
export function HistoryTable({ rows, isLoading, showResource = true, showRule = false, pagination, openId, onOpen, emptyText = 'No data available' }: HistoryTableProps) {
  const columns = useMemo(() => columnsFor({ resource: showResource, rule: showRule }), [showResource, showRule]);
  const open = openId ? rows.find((row) => row.id === openId) : undefined;
  return (
    <div className="flex flex-col gap-3">
      <DataTable
        aria-label="Send history"
        data={rows}
        columns={columns}
        getRowId={(row) => row.id}
        isLoading={isLoading}
        emptyText={emptyText}
        manualSorting
        onRowClick={(row) => onOpen(row.id === openId ? undefined : row.id)}
        {...(pagination ? { pagination } : {})}
      />
      {open ? <SendDetails row={open} onClose={() => onOpen(undefined)} /> : null}
    </div>
  );
}
