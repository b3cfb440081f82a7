import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { withLabelState } from '@web/features/health/state/labels';
import { useDisplayPreferences } from '@web/lib/preferences';
import { useUrlParams } from '@web/lib/use-url-params';
import { readStoredPageSize, sortingToParams, type SortingState } from '@web/ui/data-table';
import { Select } from '@web/ui/primitives/select';
import { Switch } from '@web/ui/primitives/switch';
import { catalogKeys } from '../api/keys';
import { useCatalogSummary, useConfigLabels, useConfigList, useConfigStatuses, useConfigTags, useConfigTypes } from '../api/list';
import type { SummaryGroup } from '../api/schema';
import { EmptyCatalog, NO_CONFIGS_TEXT } from './empty-catalog';
import { FilterBar } from './filter-bar';
import { activeFilterCount, applyFilterChange, applyViewChange, clearFilters, GROUP_BY_TYPE, parseCatalogFilters, toSummary, type CatalogFilters } from './filters';
import { ItemsTable } from './items-table';
import { summaryBody, type ListQuery } from './query';
import { SummaryTable, type SummaryRow } from './summary-table';
import { CatalogSections } from '@web/features/catalog-activity/components/catalog-sections';
import { useAgentOptions } from '@web/features/agents/lookup';

/** Where a summary row leads: its type's items, or the items with its tag value. */
function summaryRows(groups: readonly SummaryGroup[], filters: CatalogFilters, params: URLSearchParams): SummaryRow[] {
  return groups.map((group, index) => {
    const byType = filters.groupBy === GROUP_BY_TYPE;
    const value = byType ? (group.type ?? group.keys?.type ?? null) : (group.keys?.[filters.groupBy] ?? null);
    let href: string | undefined;
    if (value !== null) {
      const next = byType
        ? applyFilterChange(params, { type: value })
        : applyViewChange(applyFilterChange(params, { tags: withLabelState(filters.tags, filters.groupBy, value, 1) }), { view: 'list' });
      href = `/catalog?${next.toString()}`;
    }
    return { id: `${index}:${value ?? ''}`, value, group, href };
  });
}

/** Spec §2 /catalog: the catalog summarised by type (or a tag), and the items of a type with filters. */
export default function CatalogPage() {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseCatalogFilters(params, readStoredPageSize()), [params]);
  const preferences = useDisplayPreferences();
  const showDeleted = filters.showDeleted ?? preferences.showDeletedConfigs;
  const client = useQueryClient();

  const list: ListQuery = {
    type: filters.type,
    health: filters.health,
    status: filters.status,
    tags: filters.tags,
    labels: filters.labels,
    search: filters.search,
    agent: filters.agent,
    showDeleted,
    sortBy: filters.sortBy,
    sortOrder: filters.sortOrder,
    pageIndex: filters.pageIndex,
    pageSize: filters.pageSize,
  };
  const listing = filters.view === 'list';
  const items = useConfigList(list, listing);
  const summary = useCatalogSummary(summaryBody(filters, showDeleted), !listing);
  const types = useConfigTypes();
  const statuses = useConfigStatuses();
  const tags = useConfigTags();
  const labels = useConfigLabels();
  const agents = useAgentOptions();
  const query = listing ? items : summary;
  const filtered = activeFilterCount(filters) > 0 || Boolean(filters.type);

  const onSortingChange = (next: SortingState) => {
    // Removing the sort goes back to the default (name ascending); from there, to descending.
    const removedDefault = next.length === 0 && filters.sortBy === 'name' && filters.sortOrder === 'asc';
    const sort = removedDefault ? { sortBy: 'name', sortOrder: 'desc' as const } : sortingToParams(next);
    setParams((current) => applyViewChange(current, { sortBy: sort.sortBy, sortOrder: sort.sortOrder, pageIndex: undefined }));
  };
  const groupByOptions = [{ value: GROUP_BY_TYPE, label: 'Type' }, ...(tags.data ?? []).map((tag) => ({ value: tag.key, label: `Tag: ${tag.key}` }))];
  if (!groupByOptions.some((option) => option.value === filters.groupBy)) groupByOptions.push({ value: filters.groupBy, label: `Tag: ${filters.groupBy}` });
  const groups = summary.data ?? [];
  const totalItems = groups.reduce((sum, group) => sum + group.count, 0);

  // With the count rather than the filters: the filters then fit one row at 900 px (issue 38 item 8).
  const deletedSwitch = (
    <Switch label="Show deleted" checked={showDeleted} onCheckedChange={(checked) => setParams((current) => applyFilterChange(current, { showDeleted: checked }))} className="px-1" />
  );

  return (
    <Page title="Catalog" extra={<CatalogSections />} onRefresh={() => void client.invalidateQueries({ queryKey: catalogKeys.all })} refreshing={query.isFetching}>
      <div className="flex flex-col gap-3">
        <FilterBar
          filters={filters}
          types={types.data ?? []}
          statuses={statuses.data ?? []}
          tags={tags.data ?? []}
          labels={labels.data ?? []}
          agents={agents}
          onChange={(patch) => setParams((current) => applyFilterChange(current, patch))}
          onClear={() => setParams(clearFilters)}
        />
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          {listing ? (
            <>
              <Link to={`/catalog?${toSummary(params).toString()}`} className="inline-flex items-center gap-1 font-medium text-blue-700 hover:underline">
                <ArrowLeft className="size-4" aria-hidden="true" />
                Summary
              </Link>
              <span role="status">{items.data ? `${items.data.total} ${items.data.total === 1 ? 'item' : 'items'}${filters.type ? ` of type ${filters.type}` : ''}` : ''}</span>
              {deletedSwitch}
            </>
          ) : (
            <>
              <Select
                label="Group by"
                className="flex items-center gap-2 [&>div:first-child]:mb-0 [&>div:first-child]:whitespace-nowrap"
                value={filters.groupBy}
                options={groupByOptions}
                onValueChange={(groupBy) => setParams((current) => applyViewChange(current, { groupBy }))}
              />
              <span role="status">{summary.data ? `${totalItems} ${totalItems === 1 ? 'item' : 'items'} in ${groups.length} ${groups.length === 1 ? 'group' : 'groups'}` : ''}</span>
              {deletedSwitch}
              <Link to={`/catalog?${applyViewChange(params, { view: 'list' }).toString()}`} className="ml-auto font-medium text-blue-700 hover:underline">
                List all items
              </Link>
            </>
          )}
        </div>
        {query.error ? (
          <p role="alert" className="text-sm text-red-600">
            {query.error.message}
          </p>
        ) : null}
        {listing ? (
          items.data && items.data.total === 0 && !items.isFetching ? (
            <EmptyCatalog filtered={filtered || showDeleted} onClear={filtered ? () => setParams(clearFilters) : undefined} />
          ) : (
            <ItemsTable
              rows={items.data?.rows ?? []}
              total={items.data?.total ?? 0}
              isLoading={items.isLoading}
              emptyText={NO_CONFIGS_TEXT}
              oneType={Boolean(filters.type)}
              showAgent={agents.length > 1}
              sorting={[{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }]}
              onSortingChange={onSortingChange}
              page={{ pageIndex: filters.pageIndex, pageSize: filters.pageSize }}
              onPageChange={(next) => setParams((current) => applyViewChange(current, { pageIndex: next.pageIndex, pageSize: next.pageSize }))}
            />
          )
        ) : summary.data && groups.length === 0 && !summary.isFetching ? (
          <EmptyCatalog filtered={activeFilterCount(filters) > 0} onClear={() => setParams(clearFilters)} />
        ) : (
          <SummaryTable rows={summaryRows(groups, filters, params)} groupBy={filters.groupBy} isLoading={summary.isLoading} />
        )}
      </div>
    </Page>
  );
}
