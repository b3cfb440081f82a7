import { Pagination } from '@web/ui/data-table/pagination';
import { CHECK_PAGE_SIZES, type CheckPageAnswer, type CheckPageRequest } from '../api/check-page';
import type { CheckSummary } from '../api/schema';
import { NO_GROUP } from '../state/checks';
import type { HealthParams, SortColumn } from '../state/params';
import { ChecksTable } from '../table/checks-table';
import { GroupedChecks } from '../table/grouped-checks';
import { CheckCards } from './check-cards';
import { PivotTable } from './pivot-table';

/** The server's answer (docs/HEALTH.md): the table and the cards show its page, the pivot its grid. */
export interface ListPage {
  request: CheckPageRequest;
  answer: CheckPageAnswer | undefined;
  refreshMs: number;
  onPageChange: (next: { pageIndex: number; pageSize: number }) => void;
}

interface ListViewProps {
  state: HealthParams;
  checks: CheckSummary[];
  list: ListPage;
  isLoading: boolean;
  onOpenCheck: (check: Pick<CheckSummary, 'id'>) => void;
  onSortChange: (sort: { sortBy: SortColumn; sortDesc: boolean } | undefined) => void;
}

/** The checks under the tabs: the pivot when one is asked for, else the table (grouped or not) or the cards. */
export function ListView({ state, checks, list, isLoading, onOpenCheck, onSortChange }: ListViewProps) {
  if (state.pivotBy) {
    return <PivotTable pivot={list.answer?.pivot} request={list.request} pivotBy={state.pivotBy} pivotLabel={state.pivotLabel} cellType={state.pivotCellType} isLoading={isLoading} onOpenCheck={onOpenCheck} />;
  }
  const total = list.answer?.total ?? 0;
  const pagination = { pageIndex: list.request.page, pageSize: list.request.pageSize, totalRows: total, onChange: list.onPageChange, pageSizeOptions: CHECK_PAGE_SIZES, persistKey: false as const };
  if (state.layout === 'card') {
    return (
      <div className="flex flex-col gap-2">
        <CheckCards checks={checks} sortBy={state.sortBy} sortDesc={state.sortDesc} isLoading={isLoading} onOpenCheck={onOpenCheck} />
        {total > 0 ? <Pagination {...pagination} /> : null}
      </div>
    );
  }
  if (state.groupBy !== NO_GROUP) {
    return (
      <GroupedChecks
        request={list.request}
        groups={list.answer?.groups?.items ?? []}
        totalGroups={list.answer?.groups?.total ?? 0}
        isLoading={isLoading}
        refreshMs={list.refreshMs}
        onSortChange={onSortChange}
        onPageChange={list.onPageChange}
        onOpenCheck={onOpenCheck}
      />
    );
  }
  return <ChecksTable checks={checks} groupBy={NO_GROUP} sortBy={state.sortBy} sortDesc={state.sortDesc} isLoading={isLoading} pagination={pagination} onSortChange={onSortChange} onOpenCheck={onOpenCheck} />;
}
