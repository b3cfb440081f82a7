import { formatGroupUptime, formatRelative } from '@common/format';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, useState, type KeyboardEvent } from 'react';
import { CheckIcon } from '@web/ui/check-icon';
import { Pagination } from '@web/ui/data-table/pagination';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { CHECK_PAGE_SIZES, useCheckPage, type CheckGroup, type CheckPageRequest } from '../api/check-page';
import type { CheckSummary } from '../api/schema';
import { displayName } from '../state/checks';
import type { SortColumn } from '../state/params';
import { nextSort } from '../state/sort';
import { HealthCell, HealthDot, LatencyCell, UptimeCell } from './cells';

/** The group's checks are asked this many at a time. */
const GROUP_PAGE_SIZE = 50;

const HEADERS: ReadonlyArray<{ id: SortColumn; label: string; size?: number }> = [
  { id: 'name', label: 'Checks' },
  { id: 'status', label: 'Health', size: 200 },
  { id: 'uptime', label: 'Uptime', size: 110 },
  { id: 'latency', label: 'Latency', size: 110 },
  { id: 'last_transition_time', label: 'Transition', size: 110 },
];

export interface GroupedChecksProps {
  /** The page's request for its groups; a group's checks are asked with the same filters. */
  request: CheckPageRequest;
  groups: CheckGroup[];
  totalGroups: number;
  isLoading: boolean;
  refreshMs: number;
  onSortChange: (sort: { sortBy: SortColumn; sortDesc: boolean } | undefined) => void;
  onPageChange: (next: { pageIndex: number; pageSize: number }) => void;
  onOpenCheck: (check: CheckSummary) => void;
}

function activateOnKey(event: KeyboardEvent<HTMLTableRowElement>, activate: () => void) {
  if (event.target !== event.currentTarget) return;
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    activate();
  }
}

/** One check's row, with the columns of the ungrouped table. */
function CheckRow({ check, onOpen }: { check: CheckSummary; onOpen: (check: CheckSummary) => void }) {
  const name = displayName(check);
  return (
    <tr tabIndex={0} onClick={() => onOpen(check)} onKeyDown={(event) => activateOnKey(event, () => onOpen(check))} className="cursor-pointer border-b border-slate-100 hover:bg-slate-50 focus-visible:bg-blue-50">
      <td className="px-3 py-1.5" />
      <td className="px-3 py-1.5 align-middle" style={{ paddingLeft: 28 }}>
        <span className="flex min-w-0 items-center gap-2">
          <CheckIcon icon={check.icon} type={check.type} />
          <span className="truncate" title={name}>
            {name}
          </span>
        </span>
      </td>
      <td className="px-3 py-1.5 align-middle">
        <HealthCell check={check} />
      </td>
      <td className="px-3 py-1.5 align-middle">
        <UptimeCell check={check} />
      </td>
      <td className="px-3 py-1.5 align-middle">
        <LatencyCell ms={check.latency.p95} />
      </td>
      <td className="px-3 py-1.5 align-middle">
        <span title={check.last_transition_time ?? undefined}>{formatRelative(check.last_transition_time)}</span>
      </td>
    </tr>
  );
}

/** An expanded group's checks, asked from the server a page at a time. */
function GroupChecks({ request, group, refreshMs, onOpenCheck }: { request: CheckPageRequest; group: CheckGroup; refreshMs: number; onOpenCheck: (check: CheckSummary) => void }) {
  const [pageIndex, setPageIndex] = useState(0);
  const answer = useCheckPage({ ...request, group: group.key, page: pageIndex, pageSize: GROUP_PAGE_SIZE }, refreshMs);
  const checks = answer.data?.checks ?? [];
  if (checks.length === 0) {
    return (
      <tr>
        <td colSpan={6}>{answer.isLoading ? <Loading className="py-2" /> : <EmptyState title="No data available" />}</td>
      </tr>
    );
  }
  const total = answer.data?.total ?? group.count;
  return (
    <>
      {checks.map((check) => (
        <CheckRow key={check.id} check={check} onOpen={onOpenCheck} />
      ))}
      {total > GROUP_PAGE_SIZE ? (
        <tr>
          <td colSpan={6}>
            <Pagination pageIndex={pageIndex} pageSize={GROUP_PAGE_SIZE} totalRows={total} pageSizeOptions={[GROUP_PAGE_SIZE]} onChange={(next) => setPageIndex(next.pageIndex)} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/**
 * The checks table grouped on the server (spec §2 Group By): a page of groups, collapsed, each with its
 * count beside its chevron, health, uptime (checks that passed every time / checks), latency (the slowest
 * p95 of its checks) and transition (the latest of its checks); expanding one asks for its checks. The
 * table is as tall as its rows (up to the window), with no empty block under a few groups.
 */
export function GroupedChecks({ request, groups, totalGroups, isLoading, refreshMs, onSortChange, onPageChange, onOpenCheck }: GroupedChecksProps) {
  const [expanded, setExpanded] = useState<{ groupBy: string; keys: ReadonlySet<string> }>({ groupBy: request.groupBy, keys: new Set() });
  const open = expanded.groupBy === request.groupBy ? expanded.keys : new Set<string>();
  const toggle = (key: string) => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setExpanded({ groupBy: request.groupBy, keys: next });
  };
  const current = { sortBy: request.sortBy, sortDesc: request.sortDesc };
  return (
    <div className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <div className="scroll-cue-x max-h-[calc(100vh-13rem)] overflow-auto">
        <table className="w-full border-collapse text-sm" aria-label="Health checks">
          <thead className="sticky top-0 z-10 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="border-b border-slate-200 px-3 py-2" style={{ width: 32 }}>
                <span className="sr-only">Expand</span>
              </th>
              {HEADERS.map((header) => {
                const sorted = request.sortBy === header.id ? (request.sortDesc ? 'desc' : 'asc') : false;
                return (
                  <th key={header.id} scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'} className="border-b border-slate-200 px-3 py-2" style={header.size ? { width: header.size } : undefined}>
                    <button type="button" onClick={() => onSortChange(nextSort(current, header.id))} className="inline-flex items-center gap-1 uppercase hover:text-slate-900">
                      {header.label}
                      {sorted === 'asc' ? <ArrowUp className="size-3.5" aria-hidden="true" /> : sorted === 'desc' ? <ArrowDown className="size-3.5" aria-hidden="true" /> : <ArrowUpDown className="size-3.5 opacity-40" aria-hidden="true" />}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => {
              const isOpen = open.has(group.key);
              return (
                <Fragment key={group.key}>
                  <tr
                    tabIndex={0}
                    aria-expanded={isOpen}
                    onClick={() => toggle(group.key)}
                    onKeyDown={(event) => activateOnKey(event, () => toggle(group.key))}
                    className="cursor-pointer border-b border-slate-100 bg-slate-50/60 font-medium hover:bg-slate-50 focus-visible:bg-blue-50"
                  >
                    <td colSpan={2} className="px-3 py-1.5 align-middle">
                      {/* The chevron, the group and its count read as one: "› platform (3)". */}
                      <span className="flex min-w-0 items-center gap-1.5">
                        {isOpen ? <ChevronDown className="size-4 shrink-0 text-slate-500" aria-hidden="true" /> : <ChevronRight className="size-4 shrink-0 text-slate-500" aria-hidden="true" />}
                        <span className="truncate font-medium text-slate-900" title={group.key}>
                          {group.key}
                        </span>{' '}
                        <span className="shrink-0 tabular-nums text-slate-500">
                          ({group.count})
                        </span>
                      </span>
                    </td>
                    <td className="px-3 py-1.5 align-middle">
                      <HealthDot tone={group.status} />
                    </td>
                    <td className="px-3 py-1.5 align-middle">
                      <span className="tabular-nums">{formatGroupUptime(group.passing, group.count)}</span>
                    </td>
                    <td className="px-3 py-1.5 align-middle">
                      <LatencyCell ms={group.latency} />
                    </td>
                    <td className="px-3 py-1.5 align-middle">
                      <span title={group.last_transition_time ?? undefined}>{formatRelative(group.last_transition_time)}</span>
                    </td>
                  </tr>
                  {isOpen ? <GroupChecks request={request} group={group} refreshMs={refreshMs} onOpenCheck={onOpenCheck} /> : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {groups.length > 0 ? null : isLoading ? <Loading /> : <EmptyState title="No data available" />}
      {totalGroups > request.pageSize || request.page > 0 ? (
        <Pagination pageIndex={request.page} pageSize={request.pageSize} totalRows={totalGroups} pageSizeOptions={CHECK_PAGE_SIZES} onChange={onPageChange} />
      ) : null}
    </div>
  );
}
