import { SIDEBAR_COLLAPSE_BREAKPOINT_PX } from '@common/constants';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { BOUNDARY_FALLBACK_TEXT, Page } from '@web/app/layout/page';
import { ErrorPage } from '@web/app/pages/error-page';
import { useDocumentTitle } from '@web/app/layout/document-title';
import { ErrorBoundary } from '@web/app/error-boundary';
import { SearchBox } from '@web/ui/search-box';
import type { TimeRangeValue } from '@web/ui/time-range';
import type { TriState } from '@web/ui/tri-state-filter';
import type { CheckSummary } from '../api/schema';
import { useAgentNames } from '../api/agents';
import { CHECK_PAGE_SIZE_KEY, CHECK_PAGE_SIZES, checkPageRequest, useCheckPage } from '../api/check-page';
import { ALL_TAB, groupByOptions, LOCAL_AGENT_ID, tabByOptions } from '../state/checks';
import { pivotDimensions } from '../state/pivot';
import { timeRangeToParam } from '../state/time-range';
import { usePersistedPageSize } from '@web/ui/data-table/page-size';
import { withLabelState } from '../state/labels';
import { activeFilterCount, type SortColumn } from '../state/params';
import { refreshRateMs, useRefreshRate } from '../state/refresh';
import { useHealthParams } from '../state/use-health-params';
import { useMediaQuery } from '../state/use-media-query';
import { FilterMenu } from '../sidebar/filter-menu';
import { HealthFilters } from '../sidebar/health-filters';
import { CheckTabs } from '../toolbar/check-tabs';
import { RangeControls } from '../toolbar/range-controls';
import { ViewControls } from '../toolbar/view-controls';
import { ListView } from './list-view';

/** Spec §2 search hint, verbatim. */
const SEARCH_HINT = 'Filter the list using queries e.g: name=grafana type=Kubernetes::Deployment or health=healthy,unhealthy';
/** The hint where the box is too narrow for it (900 px with the filters beside it); the whole hint stays its title. */
const SHORT_SEARCH_HINT = 'e.g. name=grafana health=unhealthy';

// The detail and its tabs load when a check is first opened, not with the list.
const CheckDrawer = lazy(() => import('../detail/check-drawer'));

export interface HealthViewProps {
  /** 'page': inside the shell, range controls in its top bar. 'bare' (/view/health): no top bar, no sidebar. */
  variant: 'page' | 'bare';
}

/** The Health page's content (spec §2), shared by /health and /view/health. */
export function HealthView({ variant }: HealthViewProps) {
  const [state, update] = useHealthParams();
  const [refreshRate, setRefreshRate] = useRefreshRate();
  const refreshMs = refreshRateMs(refreshRate);

  // The selected tab is not one of spec §2's URL parameters; it lasts while the page is open.
  const [tabChoice, setTabChoice] = useState<{ tabBy: string; value: string }>({ tabBy: state.tabBy, value: ALL_TAB.value });
  const tab = tabChoice.tabBy === state.tabBy ? tabChoice.value : ALL_TAB.value;
  const [pageSize, setPageSize] = usePersistedPageSize(CHECK_PAGE_SIZES[0], CHECK_PAGE_SIZE_KEY);
  // Any change of what is listed returns to the first page.
  const listKey = JSON.stringify([timeRangeToParam(state.timeRange), state.query, state.hidePassing, state.labels, state.tabBy, tab, state.groupBy, state.sortBy, state.sortDesc, state.layout, pageSize]);
  const [paging, setPaging] = useState({ key: listKey, pageIndex: 0 });
  const pageIndex = paging.key === listKey ? paging.pageIndex : 0;
  const request = checkPageRequest(state, { tab, pageIndex, pageSize });
  // The table and the cards get one page; with pivotBy the same request answers the pivot's grid.
  const list = useCheckPage(request, refreshMs);
  const answer = list.data;
  const onPageChange = useCallback(
    (next: { pageIndex: number; pageSize: number }) => {
      if (next.pageSize !== pageSize) setPageSize(next.pageSize);
      else setPaging({ key: listKey, pageIndex: next.pageIndex });
    },
    [listKey, pageSize, setPageSize],
  );
  // A tab whose checks are all gone falls back to 'All'.
  useEffect(() => {
    if (answer && tab !== ALL_TAB.value && !answer.tabs.values.some((value) => value.value === tab)) setTabChoice({ tabBy: state.tabBy, value: ALL_TAB.value });
  }, [answer, tab, state.tabBy]);

  const agentIds = useMemo(() => (state.tabBy === 'agent_id' && answer ? answer.tabs.values.map((value) => value.value).filter((id) => id !== LOCAL_AGENT_ID) : []), [answer, state.tabBy]);
  const agentNames = useAgentNames(agentIds, state.tabBy === 'agent_id');
  const serverView = useMemo(() => {
    const labelOptions = answer?.labels ?? [];
    const groupOptions = groupByOptions(labelOptions.map((option) => option.key));
    const label = (value: string) => (state.tabBy === 'agent_id' ? (agentNames.get(value) ?? (value === LOCAL_AGENT_ID ? 'local' : value)) : value);
    const values = (answer?.tabs.values ?? []).map((value) => ({ value: value.value, label: label(value.value), count: value.count }));
    values.sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
    return {
      labelOptions,
      groupByOptions: groupOptions,
      tabByOptions: tabByOptions(labelOptions.map((option) => option.key)),
      pivotDimensions: pivotDimensions(groupOptions),
      tabs: [{ ...ALL_TAB, count: answer?.tabs.all ?? 0 }, ...values],
    };
  }, [answer, agentNames, state.tabBy]);
  const view = { ...serverView, tab, setTab: (value: string) => setTabChoice({ tabBy: state.tabBy, value }) };
  const loading = list;
  const wide = useMediaQuery(`(min-width: ${SIDEBAR_COLLAPSE_BREAKPOINT_PX}px)`);

  const onOpenCheck = useCallback((check: Pick<CheckSummary, 'id'>) => update({ checkId: check.id }), [update]);
  const onSortChange = useCallback((sort: { sortBy: SortColumn; sortDesc: boolean } | undefined) => update(sort ?? { sortBy: undefined, sortDesc: undefined }), [update]);
  const onQuery = useCallback((query: string) => update({ query }), [update]);
  const onTimeRange = useCallback((timeRange: TimeRangeValue) => update({ timeRange }), [update]);
  const labels = state.labels;
  const onLabelChange = useCallback((key: string, value: string, next: TriState) => update({ labels: withLabelState(labels, key, value, next) }), [update, labels]);
  const refetch = loading.refetch;
  // Spec §7: a manual refresh aborts a request in flight and starts again.
  const onRefresh = useCallback(() => void refetch({ cancelRefetch: true }), [refetch]);

  const filters = (
    <HealthFilters
      hidePassing={state.hidePassing}
      labels={state.labels}
      labelOptions={view.labelOptions}
      pivotBy={state.pivotBy}
      pivotLabel={state.pivotLabel}
      pivotCellType={state.pivotCellType}
      pivotDimensions={view.pivotDimensions}
      onLabelChange={onLabelChange}
      onChange={update}
    />
  );
  const sidebar = variant === 'page' && wide;
  const rangeControls = (
    <RangeControls timeRange={state.timeRange} onTimeRangeChange={onTimeRange} refreshing={loading.isFetching} onRefresh={onRefresh} refreshRate={refreshRate} onRefreshRateChange={setRefreshRate} />
  );
  const content = (
    <div className="flex min-w-0 gap-5">
      {sidebar ? (
        <aside aria-label="Health filters" className="w-64 shrink-0">
          {filters}
        </aside>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div role="search" className="flex flex-wrap items-center gap-3">
          {sidebar ? null : <FilterMenu activeCount={activeFilterCount(state)}>{filters}</FilterMenu>}
          <ViewControls pivoting={Boolean(state.pivotBy)} groupBy={state.groupBy} tabBy={state.tabBy} layout={state.layout} groupByOptions={view.groupByOptions} tabByOptions={view.tabByOptions} onChange={update} />
          {variant === 'bare' ? rangeControls : null}
          {/* A row of its own, so the whole hint fits; where even that is too narrow, a short one (the whole hint is the title). */}
          <div className="flex min-w-0 basis-full">
            <SearchBox label="Search checks" title={SEARCH_HINT} placeholder={SEARCH_HINT} shortPlaceholder={SHORT_SEARCH_HINT} value={state.query} onCommit={onQuery} />
          </div>
        </div>
        {loading.error ? (
          <p role="alert" className="text-sm text-red-600">
            {loading.error.message}
          </p>
        ) : null}
        <CheckTabs tabs={view.tabs} value={view.tab} onValueChange={view.setTab}>
          <ListView
            state={state}
            checks={answer?.checks ?? []}
            list={{ request, answer, refreshMs, onPageChange }}
            isLoading={loading.isLoading}
            onOpenCheck={onOpenCheck}
            onSortChange={onSortChange}
          />
        </CheckTabs>
      </div>
      {state.checkId ? (
        <Suspense fallback={null}>
          <CheckDrawer checkId={state.checkId} state={state} onChange={update} />
        </Suspense>
      ) : null}
    </div>
  );
  if (variant === 'page') {
    return (
      <Page title={TITLE} extra={<div className="ml-auto">{rangeControls}</div>}>
        {content}
      </Page>
    );
  }
  return <BareShell>{content}</BareShell>;
}

const TITLE = 'Health';

/** /view/health: the content alone, with the page's title and its error boundary. */
function BareShell({ children }: { children: ReactNode }) {
  useDocumentTitle(TITLE);
  return (
    <main className="flex-1 p-4">
      <h1 className="sr-only">{TITLE}</h1>
      <ErrorBoundary resetKey="view-health" fallback={(error) => <ErrorPage title={BOUNDARY_FALLBACK_TEXT} error={error} />}>
        {children}
      </ErrorBoundary>
    </main>
  );
}
