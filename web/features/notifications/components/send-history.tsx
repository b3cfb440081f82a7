import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAccess } from '@web/app/session';
import { patchSearchParams, readInteger, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { usePersistedPageSize } from '@web/ui/data-table';
import { SearchBox } from '@web/ui/search-box';
import { relativeRange, resolveTimeRange, TimeRangePicker, timeRangeFromParams, writeTimeRangeParams, type TimeRangeValue } from '@web/ui/time-range';
import { useSendHistory } from '../api/history';
import { SEND_STATUSES } from '../model/format';
import { ADD_SILENCE_PATH, resourceHistoryPath } from '../paths';
import { HistoryTable } from './history-table';
import { StatusFilter } from './status-filter';
import { isOneOf } from '@common/guards';

const DEFAULT_RANGE = relativeRange('7d');
const RANGE_KEYS = { range: 'range', from: 'from', to: 'to' };

export interface HistoryFilters {
  statuses: string[];
  search: string;
  range: TimeRangeValue;
  pageIndex: number;
  pageSize: number | undefined;
  open: string | undefined;
}

/** The history's view state, all of it in the URL (DESIGN §7). */
export function parseHistoryFilters(params: URLSearchParams): HistoryFilters {
  const p = readSearchParams(params);
  const size = readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  const statuses = (p.status ?? '').split(',').filter((status) => isOneOf(SEND_STATUSES, status));
  return {
    statuses,
    search: p.q ?? '',
    range: timeRangeFromParams(params, DEFAULT_RANGE, RANGE_KEYS),
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize !== undefined && PAGE_SIZES.some((allowed) => allowed === size) ? size : undefined,
    open: p.send,
  };
}

function resetPage(params: URLSearchParams, patch: Record<string, string | undefined>): URLSearchParams {
  return patchSearchParams(params, { ...patch, pageIndex: undefined, send: undefined }, { pageIndex: '0' });
}

/** A rule's or a resource's send history, filterable by status, resource and time range; state in the URL. */
export function SendHistory({ notificationId, resourceId }: { notificationId?: string; resourceId?: string }) {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseHistoryFilters(params), [params]);
  const [storedSize] = usePersistedPageSize();
  const pageSize = filters.pageSize ?? storedSize;
  const resolved = useMemo(() => {
    try {
      return resolveTimeRange(filters.range);
    } catch (error) {
      console.warn(error);
      return null;
    }
    // Resolved again when the range changes or the page refreshes (the query key holds the bounds).
  }, [filters.range]);
  const history = useSendHistory({
    ...(notificationId ? { notificationId } : {}),
    ...(resourceId ? { resourceId } : {}),
    statuses: filters.statuses,
    search: resourceId ? '' : filters.search,
    from: resolved?.from.toISOString() ?? null,
    to: filters.range.type === 'relative' ? null : (resolved?.to.toISOString() ?? null),
    pageIndex: filters.pageIndex,
    pageSize,
  });
  return (
    <div className="flex flex-col gap-3">
      <div role="search" aria-label="Send history filters" className="flex flex-wrap items-center gap-3">
        <StatusFilter value={filters.statuses} onChange={(next) => setParams((current) => resetPage(current, { status: next.length > 0 ? next.join(',') : undefined }))} />
        {resourceId ? null : (
          <SearchBox label="Search resources" placeholder="Resource name" value={filters.search} onCommit={(q) => setParams((current) => resetPage(current, { q: q || undefined }))} />
        )}
        <TimeRangePicker value={filters.range} onChange={(next) => setParams((current) => resetPage(writeTimeRangeParams(current, next, RANGE_KEYS), {}))} />
      </div>
      {history.error ? (
        <p role="alert" className="text-sm text-red-600">
          {history.error.message}
        </p>
      ) : null}
      <HistoryTable
        rows={history.data?.rows ?? []}
        isLoading={history.isLoading}
        showResource={!resourceId}
        showRule={Boolean(resourceId)}
        openId={filters.open}
        onOpen={(id) => setParams((current) => patchSearchParams(current, { send: id }))}
        pagination={{
          pageIndex: filters.pageIndex,
          pageSize,
          totalRows: history.data?.total ?? 0,
          onChange: (next) => setParams((current) => patchSearchParams(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize), send: undefined }, { pageIndex: '0' })),
        }}
      />
    </div>
  );
}

/**
 * A resource's latest sends inside another page (the check drawer, a config item, a component): no URL
 * state of its own, so it never fights the host page's parameters; the full history is one link away.
 */
export function ResourceNotifications({ resourceId, kind }: { resourceId: string; kind?: 'check' | 'config' | 'component' | undefined }) {
  const { can } = useAccess();
  const history = useSendHistory({ resourceId, statuses: [], search: '', from: null, to: null, pageIndex: 0, pageSize: 20 });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{history.data ? `${history.data.total} notification${history.data.total === 1 ? '' : 's'} about this resource` : ''}</p>
        <span className="flex items-center gap-4">
          {kind && can('notifications', 'write') ? (
            <Link to={`${ADD_SILENCE_PATH}?${kind}_id=${encodeURIComponent(resourceId)}`} className="text-sm text-blue-700 hover:underline">
              Silence notifications
            </Link>
          ) : null}
          <Link to={resourceHistoryPath(resourceId)} className="text-sm text-blue-700 hover:underline">
            All notifications of this resource
          </Link>
        </span>
      </div>
      {history.error ? (
        <p role="alert" className="text-sm text-red-600">
          {history.error.message}
        </p>
      ) : null}
      <EmbeddedTable rows={history.data?.rows ?? []} isLoading={history.isLoading} />
    </div>
  );
}

function EmbeddedTable({ rows, isLoading }: { rows: Parameters<typeof HistoryTable>[0]['rows']; isLoading: boolean }) {
  // The open row is local here: the host page owns the URL.
  const [open, setOpen] = useState<string | undefined>(undefined);
  return <HistoryTable rows={rows} isLoading={isLoading} showResource={false} showRule openId={open} onOpen={setOpen} emptyText="No notifications were sent about this resource" />;
}

