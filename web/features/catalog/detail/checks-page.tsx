import { formatUptime } from '@common/format';
import { Link } from 'react-router';
import { CheckIcon } from '@web/ui/check-icon';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { DateTime } from '@web/ui/primitives/date-time';
import { cn } from '@web/ui/primitives/cn';
import { useConfigChecks } from '../api/tabs';
import type { ConfigCheck } from '../api/schema';
import { ConfigPage } from '../components/config-page';

/** Spec §4 check indicator: green healthy, red unhealthy; gray for a check that has not run. */
const STATUS = { healthy: ['bg-green-500', 'Healthy'], unhealthy: ['bg-red-500', 'Unhealthy'], unknown: ['bg-slate-400', 'Not run yet'] } as const;

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
const checkHref = (id: string) => `/health?checkId=${encodeURIComponent(id)}`;

const COLUMNS: ColumnDef<ConfigCheck>[] = [
  {
    accessorKey: 'name',
    header: 'Check',
    cell: ({ row }) => (
      <Link to={checkHref(row.original.id)} onClick={stop} className="inline-flex items-center gap-2 text-blue-700 hover:underline">
        <CheckIcon icon={row.original.icon} type={row.original.type} />
        {row.original.name || row.original.description || row.original.id}
      </Link>
    ),
  },
  {
    accessorKey: 'status',
    header: 'Health',
    cell: ({ row }) => {
      const [dot, text] = STATUS[row.original.status ?? 'unknown'];
      return (
        <span className="inline-flex items-center gap-1.5">
          <span className={cn('inline-block size-2.5 rounded-full', dot)} aria-hidden="true" />
          {text}
        </span>
      );
    },
  },
  { accessorKey: 'type', header: 'Type' },
  { accessorKey: 'canary_name', header: 'Canary' },
  { id: 'uptime', header: 'Uptime (24h)', enableSorting: false, cell: ({ row }) => <span className="tabular-nums">{formatUptime(row.original.uptime.passed, row.original.uptime.failed)}</span> },
  { accessorKey: 'last_runtime', header: 'Last run', cell: ({ row }) => <DateTime value={row.original.last_runtime} className="whitespace-nowrap" /> },
];

function ChecksTable({ configId }: { configId: string }) {
  const checks = useConfigChecks(configId);
  return (
    <div className="flex flex-col gap-2">
      {checks.error ? (
        <p role="alert" className="text-sm text-red-600">
          {checks.error.message}
        </p>
      ) : null}
      <DataTable aria-label="Checks" data={checks.data ?? []} columns={COLUMNS} getRowId={(row) => row.id} isLoading={checks.isLoading} emptyText="No checks are linked to this item" />
    </div>
  );
}

/** Spec §2 /catalog/{id}/checks: the health checks linked to the item, each opening on the Health page. */
export default function ChecksPage() {
  return <ConfigPage tab="checks">{(config) => <ChecksTable configId={config.id} />}</ConfigPage>;
}
