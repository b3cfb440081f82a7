import type { CheckSummary } from '../api/schema';
import type { HealthParams, SortColumn } from '../state/params';
import { ChecksTable } from '../table/checks-table';
import { CheckCards } from './check-cards';
import { PivotTable } from './pivot-table';

interface ListViewProps {
  state: HealthParams;
  checks: CheckSummary[];
  isLoading: boolean;
  onOpenCheck: (check: CheckSummary) => void;
  onSortChange: (sort: { sortBy: SortColumn; sortDesc: boolean } | undefined) => void;
}

/** The checks under the tabs: the pivot when one is asked for, else the table or (layout=card) the cards. */
export function ListView({ state, checks, isLoading, onOpenCheck, onSortChange }: ListViewProps) {
  if (state.pivotBy) {
    return <PivotTable checks={checks} pivotBy={state.pivotBy} pivotLabel={state.pivotLabel} cellType={state.pivotCellType} isLoading={isLoading} onOpenCheck={onOpenCheck} />;
  }
  if (state.layout === 'card') return <CheckCards checks={checks} sortBy={state.sortBy} sortDesc={state.sortDesc} isLoading={isLoading} onOpenCheck={onOpenCheck} />;
  return <ChecksTable checks={checks} groupBy={state.groupBy} sortBy={state.sortBy} sortDesc={state.sortDesc} isLoading={isLoading} onSortChange={onSortChange} onOpenCheck={onOpenCheck} />;
}
