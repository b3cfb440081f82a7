import { AttachEvidenceButton, useCanAttachEvidence } from '@web/features/incidents/link/attach-evidence';
import { CHECK_STATUS_HISTORY_PAGE_SIZE } from '@common/constants';
import { formatDuration } from '@common/format';
import { useMemo, useState } from 'react';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { cn } from '@web/ui/primitives/cn';
import { DateTime, useFormatDate, type DateFormatter } from '@web/ui/primitives/date-time';
import type { TimeRangeValue } from '@web/ui/time-range';
import { useCheckHistory } from '../api/check';
import type { CheckStatus } from '../api/schema';
import { timeRangeToParam } from '../state/time-range';
import { HealthDot } from '../table/cells';
import { ArtifactLinks } from './artifact-links';
import { DurationFilterField } from './duration-filter-field';
import { useRunArtifacts, type RunArtifact } from './run-artifacts';

const columns: ColumnDef<CheckStatus>[] = [
  { id: 'time', header: 'Time', enableSorting: false, size: 150, cell: ({ row }) => <DateTime value={row.original.time} className="whitespace-nowrap" /> },
  {
    id: 'status',
    header: 'Status',
    enableSorting: false,
    size: 90,
    cell: ({ row }) => (
      <span className="inline-flex items-center gap-2 whitespace-nowrap">
        <HealthDot tone={row.original.status ? 'healthy' : 'unhealthy'} />
        {row.original.status ? 'Passed' : row.original.invalid ? 'Invalid' : 'Failed'}
      </span>
    ),
  },
  { id: 'duration', header: 'Duration', enableSorting: false, size: 90, cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{formatDuration(row.original.duration)}</span> },
  {
    id: 'message',
    header: 'Message',
    enableSorting: false,
    // The message takes the room the other columns leave; it wraps at word boundaries (an address such as
    // 127.0.0.1 stays whole) and a long one shows three lines, all of it on hover or a click (issue 38).
    cell: ({ row }) => <MessageText message={row.original.message} error={row.original.error} />,
  },
];

function MessageText({ message, error }: { message?: string | null; error?: string | null }) {
  const [expanded, setExpanded] = useState(false);
  const full = [message, error].filter(Boolean).join(' — ');
  if (!full) return null;
  return (
    <button
      type="button"
      title={full}
      aria-expanded={expanded}
      onClick={(event) => {
        event.stopPropagation();
        setExpanded(!expanded);
      }}
      className={cn('min-w-48 cursor-text text-left [overflow-wrap:break-word]', !expanded && 'line-clamp-3')}
    >
      {message}
      {error ? <span className="text-red-700">{message ? ` — ${error}` : error}</span> : null}
    </button>
  );
}

/** Attach as Evidence on a result row: the evidence keeps that result (the snapshot reads up to its time). */
function attachColumn(checkId: string, formatDate: DateFormatter): ColumnDef<CheckStatus> {
  return {
    id: 'attach',
    header: () => <span className="sr-only">Actions</span>,
    enableSorting: false,
    size: 110,
    cell: ({ row }) => (
      <AttachEvidenceButton
        variant="ghost"
        label="Attach"
        target={{ type: 'check', check_id: checkId, evidence: { time: row.original.time }, summary: `the check result of ${formatDate(row.original.time, 'timestamp')}` }}
      />
    ),
  };
}

/** The files a run left (exec `artifacts`): a column only when a result on the page has some. */
function artifactsColumn(byRun: ReadonlyMap<number, RunArtifact[]>): ColumnDef<CheckStatus> {
  return {
    id: 'artifacts',
    header: 'Artifacts',
    enableSorting: false,
    size: 220,
    cell: ({ row }) => <ArtifactLinks artifacts={byRun.get(Date.parse(row.original.time)) ?? []} />,
  };
}

/** History tab (spec §2, §5): results newest first in pages of 50, filtered by a minimum duration. */
export function HistoryTab({ checkId, timeRange }: { checkId: string; timeRange: TimeRangeValue }) {
  const [minDuration, setMinDuration] = useState(0);
  const [pageIndex, setPageIndex] = useState(0);
  // Another range starts again at the first page too.
  const rangeKey = timeRangeToParam(timeRange);
  const [pagedRange, setPagedRange] = useState(rangeKey);
  if (pagedRange !== rangeKey) {
    setPagedRange(rangeKey);
    setPageIndex(0);
  }
  const history = useCheckHistory(checkId, timeRange, minDuration, pageIndex);
  const canAttach = useCanAttachEvidence();
  const formatDate = useFormatDate();
  const rows = useMemo(() => history.data?.rows ?? [], [history.data]);
  const artifacts = useRunArtifacts(checkId, rows.map((row) => row.time)).data;
  const shown = useMemo(() => {
    const withArtifacts = artifacts && artifacts.size > 0 ? [...columns, artifactsColumn(artifacts)] : columns;
    return canAttach ? [...withArtifacts, attachColumn(checkId, formatDate)] : withArtifacts;
  }, [artifacts, canAttach, checkId, formatDate]);
  return (
    <div className="flex min-h-0 flex-col gap-3">
      <DurationFilterField
        onChange={(next) => {
          // Spec §5: a filter change goes back to the first page.
          setMinDuration(next);
          setPageIndex(0);
        }}
      />
      {history.error ? (
        <p role="alert" className="text-sm text-red-600">
          {history.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label="Check history"
        data={rows}
        columns={shown}
        getRowId={(row) => row.time}
        isLoading={history.isLoading}
        className="max-h-[28rem]"
        pagination={{
          pageIndex,
          pageSize: CHECK_STATUS_HISTORY_PAGE_SIZE,
          totalRows: history.data?.total ?? 0,
          pageSizeOptions: [CHECK_STATUS_HISTORY_PAGE_SIZE],
          persistKey: false,
          onChange: (next) => setPageIndex(next.pageIndex),
        }}
      />
    </div>
  );
}
