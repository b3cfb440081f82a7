import { Link } from 'react-router';
import type { DateFormat } from '@common/constants';
import { formatDate } from '@common/format/date';
import { formatDuration } from '@common/format/duration';
import type { ColumnDef } from '@web/ui/data-table';
import { agentHref, resourceHref } from './links';
import type { JobHistory } from './schema';
import { JobStatusBadge } from './status-badge';

/** Links stop the click from also opening the row's details dialog. */
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

export function ResourceCell({ job }: { job: JobHistory }) {
  const href = resourceHref(job.resource_type, job.resource_id);
  const label = job.resource_name || job.resource_id || '';
  return (
    <span className="flex flex-col">
      {href ? (
        <Link to={href} onClick={stop} className="text-blue-700 hover:underline">
          {label}
        </Link>
      ) : (
        <span>{label}</span>
      )}
      {job.resource_type ? <span className="text-xs text-slate-500">{job.resource_type}</span> : null}
    </span>
  );
}

export function AgentCell({ job }: { job: JobHistory }) {
  const id = job.agent?.id ?? job.agent_id;
  if (!id) return null;
  const href = agentHref(id);
  const label = job.agent?.name ?? id;
  return href ? (
    <Link to={href} onClick={stop} className="text-blue-700 hover:underline">
      {label}
    </Link>
  ) : (
    <span>{label}</span>
  );
}

export function jobColumns(dateFormat: DateFormat, timeZone: string): ColumnDef<JobHistory>[] {
  return [
    { accessorKey: 'name', header: 'Job Name' },
    { accessorKey: 'resource_name', header: 'Resource', cell: ({ row }) => <ResourceCell job={row.original} /> },
    { id: 'agent', header: 'Agent', enableSorting: false, cell: ({ row }) => <AgentCell job={row.original} /> },
    { accessorKey: 'status', header: 'Status', cell: ({ row }) => <JobStatusBadge status={row.original.status} /> },
    { accessorKey: 'time_start', header: 'Started', cell: ({ row }) => formatDate(row.original.time_start, dateFormat, timeZone) },
    { accessorKey: 'duration_millis', header: 'Duration', cell: ({ row }) => formatDuration(row.original.duration_millis) },
    { accessorKey: 'success_count', header: 'Success' },
    { accessorKey: 'error_count', header: 'Errors', cell: ({ row }) => <span className={row.original.error_count > 0 ? 'font-medium text-red-600' : undefined}>{row.original.error_count}</span> },
  ];
}
