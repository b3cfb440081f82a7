import { X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useUrlParams } from '@web/lib/use-url-params';
import { usePersistedPageSize } from '@web/ui/data-table';
import { FilterSelect } from '@web/ui/filter-select';
import { resolveTimeRange, TimeRangePicker, writeTimeRangeParams } from '@web/ui/time-range';
import { usePlaybookNames } from '../api/playbooks';
import { useResourceName, useRuns } from '../api/runs';
import { playbookTitle } from '../components/badges';
import { RunsTable } from '../components/runs-table';
import { RUN_STATUSES, statusLabel } from '../model/status';
import { PLAYBOOKS_PATH } from '../paths';
import { changeRunsView, parseRunsView } from './runs-filters';

function ResourceChip({ id, onClear }: { id: string; onClear: () => void }) {
  const resource = useResourceName(id);
  const name = resource.data?.name ?? id;
  return (
    <span className="inline-flex h-8 items-center gap-1.5 rounded-full border border-slate-300 bg-white pl-3 pr-1 text-sm">
      <span className="text-slate-500">Resource</span>
      <span className="font-medium text-slate-900">{name}</span>
      <button type="button" aria-label={`Clear resource ${name}`} onClick={onClear} className="rounded-full p-1 text-slate-500 hover:bg-slate-100">
        <X className="size-3.5" aria-hidden="true" />
      </button>
    </span>
  );
}

/** Spec §2 /playbooks/runs (?playbook={id}): every run, newest first, filtered by playbook, status, resource and time. */
export default function RunsPage() {
  const [params, setParams] = useUrlParams();
  const view = useMemo(() => parseRunsView(params), [params]);
  const [storedSize] = usePersistedPageSize();
  const pageSize = view.pageSize ?? storedSize;
  const [refreshedAt, setRefreshedAt] = useState(() => Date.now());
  const resolved = useMemo(() => {
    try {
      return resolveTimeRange(view.range, new Date(refreshedAt));
    } catch (error) {
      console.warn(error);
      return null;
    }
  }, [view.range, refreshedAt]);
  const names = usePlaybookNames();
  const runs = useRuns({
    playbook: view.playbook,
    status: view.status,
    resource: view.resource,
    from: resolved?.from.toISOString(),
    to: view.range.type === 'relative' ? undefined : resolved?.to.toISOString(),
    pageIndex: view.pageIndex,
    pageSize,
  });
  const playbookOptions = [{ value: '', label: 'All playbooks' }, ...(names.data ?? []).map((item) => ({ value: item.id, label: playbookTitle(item) }))];
  // A playbook named in the URL that the list does not hold (deleted) still shows as chosen.
  if (view.playbook && !playbookOptions.some((option) => option.value === view.playbook)) playbookOptions.push({ value: view.playbook, label: view.playbook });
  const chosen = names.data?.find((item) => item.id === view.playbook);

  return (
    <Page
      title={chosen ? `Runs of ${playbookTitle(chosen)}` : 'Playbook runs'}
      onRefresh={() => {
        setRefreshedAt(Date.now());
        void runs.refetch();
      }}
      refreshing={runs.isFetching}
    >
      <div className="flex flex-col gap-3">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
          <Link to={PLAYBOOKS_PATH} className="text-blue-700 hover:underline">
            Playbooks
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          <span aria-current="page" className="font-medium text-slate-900">Runs</span>
        </nav>
        <div role="search" aria-label="Run filters" className="flex flex-wrap items-center gap-3">
          <FilterSelect label="Playbook" value={view.playbook ?? ''} options={playbookOptions} onChange={(playbook) => setParams((current) => changeRunsView(current, { playbook }))} />
          <FilterSelect
            label="Status"
            value={view.status ?? ''}
            options={[{ value: '', label: 'All statuses' }, ...RUN_STATUSES.map((status) => ({ value: status, label: statusLabel(status) }))]}
            onChange={(status) => setParams((current) => changeRunsView(current, { status }))}
          />
          {view.resource ? <ResourceChip id={view.resource} onClear={() => setParams((current) => changeRunsView(current, { resource: undefined }))} /> : null}
          <TimeRangePicker value={view.range} onChange={(next) => setParams((current) => changeRunsView(writeTimeRangeParams(current, next), {}))} />
        </div>
        {runs.error ? (
          <p role="alert" className="text-sm text-red-600">
            {runs.error.message}
          </p>
        ) : null}
        <RunsTable
          rows={runs.data?.rows ?? []}
          isLoading={runs.isPending}
          pagination={{
            pageIndex: view.pageIndex,
            pageSize,
            totalRows: runs.data?.total ?? 0,
            onChange: (next) => setParams((current) => changeRunsView(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
          }}
        />
      </div>
    </Page>
  );
}
