import { SIDEBAR_COLLAPSE_BREAKPOINT_PX } from '@common/constants';
import { lazy, Suspense, useCallback, type ReactNode } from 'react';
import { BOUNDARY_FALLBACK_TEXT, Page } from '@web/app/layout/page';
import { ErrorPage } from '@web/app/pages/error-page';
import { useDocumentTitle } from '@web/app/layout/document-title';
import { ErrorBoundary } from '@web/app/error-boundary';
import { SearchBox } from '@web/ui/search-box';
import type { TimeRangeValue } from '@web/ui/time-range';
import type { TriState } from '@web/ui/tri-state-filter';
import type { CheckSummary } from '../api/schema';
import { useChecksSummary } from '../api/summary';
import { withLabelState } from '../state/labels';
import { activeFilterCount, type SortColumn } from '../state/params';
import { refreshRateMs, useRefreshRate } from '../state/refresh';
import { useHealthParams } from '../state/use-health-params';
import { useMediaQuery } from '../state/use-media-query';
import { useVisibleChecks } from '../state/use-visible-checks';
import { FilterMenu } from '../sidebar/filter-menu';
import { HealthFilters } from '../sidebar/health-filters';
import { CheckTabs } from '../toolbar/check-tabs';
import { RangeControls } from '../toolbar/range-controls';
import { ViewControls } from '../toolbar/view-controls';
import { ListView } from './list-view';

/** Spec §2 search hint, verbatim. */
const SEARCH_HINT = 'Filter the list using queries e.g: name=grafana type=Kubernetes::Deployment or health=healthy,unhealthy';

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
  const summary = useChecksSummary({ timeRange: state.timeRange, query: state.query, hidePassing: state.hidePassing }, refreshRateMs(refreshRate));
  const view = useVisibleChecks(summary.data?.checks_summary, state.labels, state.tabBy);
  const wide = useMediaQuery(`(min-width: ${SIDEBAR_COLLAPSE_BREAKPOINT_PX}px)`);

  const onOpenCheck = useCallback((check: CheckSummary) => update({ checkId: check.id }), [update]);
  const onSortChange = useCallback((sort: { sortBy: SortColumn; sortDesc: boolean } | undefined) => update(sort ?? { sortBy: undefined, sortDesc: undefined }), [update]);
  const onQuery = useCallback((query: string) => update({ query }), [update]);
  const onTimeRange = useCallback((timeRange: TimeRangeValue) => update({ timeRange }), [update]);
  const labels = state.labels;
  const onLabelChange = useCallback((key: string, value: string, next: TriState) => update({ labels: withLabelState(labels, key, value, next) }), [update, labels]);
  const refetch = summary.refetch;
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
    <RangeControls timeRange={state.timeRange} onTimeRangeChange={onTimeRange} refreshing={summary.isFetching} onRefresh={onRefresh} refreshRate={refreshRate} onRefreshRateChange={setRefreshRate} />
  );
  const data = summary.data;
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
          <SearchBox label="Search checks" title={SEARCH_HINT} placeholder={SEARCH_HINT} value={state.query} onCommit={onQuery} />
          <ViewControls pivoting={Boolean(state.pivotBy)} groupBy={state.groupBy} tabBy={state.tabBy} layout={state.layout} groupByOptions={view.groupByOptions} tabByOptions={view.tabByOptions} onChange={update} />
          {variant === 'bare' ? rangeControls : null}
        </div>
        {summary.error ? (
          <p role="alert" className="text-sm text-red-600">
            {summary.error.message}
          </p>
        ) : null}
        {data && data.total > data.checks_summary.length ? (
          <p role="status" className="text-sm text-amber-700">
            Showing the first {data.checks_summary.length} of {data.total} checks: narrow the search to see the others.
          </p>
        ) : null}
        <CheckTabs tabs={view.tabs} value={view.tab} onValueChange={view.setTab}>
          <ListView state={state} checks={view.visible} isLoading={summary.isLoading} onOpenCheck={onOpenCheck} onSortChange={onSortChange} />
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
