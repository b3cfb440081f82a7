import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Badge, type BadgeTone } from '@web/ui/primitives/badge';
import { DateTime } from '@web/ui/primitives/date-time';
import { useConfigInsights } from '../api/tabs';
import type { Insight } from '../api/schema';
import { ConfigPage } from '../components/config-page';

const SEVERITY_TONES: Readonly<Record<string, BadgeTone>> = { critical: 'danger', high: 'danger', medium: 'warning', low: 'info', info: 'neutral' };
const STATUS_TONES: Readonly<Record<string, BadgeTone>> = { open: 'warning', resolved: 'success', silenced: 'neutral' };
const SEVERITY_RANK: Readonly<Record<string, number>> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

const tone = (map: Readonly<Record<string, BadgeTone>>, value: string): BadgeTone => (Object.hasOwn(map, value) ? (map[value] ?? 'neutral') : 'neutral');

const COLUMNS: ColumnDef<Insight>[] = [
  { accessorKey: 'analyzer', header: 'Analyzer', cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.analyzer}</span> },
  { accessorKey: 'analysis_type', header: 'Type' },
  {
    id: 'severity',
    header: 'Severity',
    accessorFn: (row) => SEVERITY_RANK[row.severity] ?? 5,
    cell: ({ row }) => <Badge tone={tone(SEVERITY_TONES, row.original.severity)}>{row.original.severity}</Badge>,
  },
  { accessorKey: 'status', header: 'Status', cell: ({ row }) => <Badge tone={tone(STATUS_TONES, row.original.status)}>{row.original.status}</Badge> },
  {
    id: 'message',
    header: 'Message',
    enableSorting: false,
    cell: ({ row }) => {
      const text = row.original.message ?? row.original.summary ?? '';
      return (
        <span title={text} className="line-clamp-3 block min-w-80 max-w-2xl text-slate-700">
          {text}
        </span>
      );
    },
  },
  { accessorKey: 'first_observed', header: 'First observed', cell: ({ row }) => <DateTime value={row.original.first_observed} className="whitespace-nowrap" /> },
  { accessorKey: 'last_observed', header: 'Last observed', cell: ({ row }) => <DateTime value={row.original.last_observed} className="whitespace-nowrap" /> },
];

function InsightsTable({ configId }: { configId: string }) {
  const insights = useConfigInsights(configId);
  return (
    <div className="flex flex-col gap-2">
      {insights.error ? (
        <p role="alert" className="text-sm text-red-600">
          {insights.error.message}
        </p>
      ) : null}
      <DataTable aria-label="Insights" data={insights.data ?? []} columns={COLUMNS} getRowId={(row) => row.id} isLoading={insights.isLoading} emptyText="No insights for this item" />
    </div>
  );
}

/** Spec §2 /catalog/{id}/insights: what the analyzers found about the item, open and past. */
export default function InsightsPage() {
  return <ConfigPage tab="insights">{(config) => <InsightsTable configId={config.id} />}</ConfigPage>;
}
