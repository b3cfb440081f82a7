import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { patchSearchParams, readInteger, readSearchParams } from '@web/lib/url-state';
import { relativeRange, timeRangeFromParams, type TimeRangeValue } from '@web/ui/time-range';
import { RUN_STATUSES } from '../model/status';
import { isOneOf } from '@common/guards';

/** The runs list looks back 30 days unless the URL says otherwise. */
export const DEFAULT_RUNS_RANGE = relativeRange('30d');

export interface RunsView {
  playbook: string | undefined;
  status: string | undefined;
  resource: string | undefined;
  range: TimeRangeValue;
  pageIndex: number;
  pageSize: number | undefined;
}

/** The runs page's state, all of it in the URL (DESIGN §7); unknown statuses are dropped. */
export function parseRunsView(params: URLSearchParams): RunsView {
  const p = readSearchParams(params);
  const size = readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  return {
    playbook: p.playbook || undefined,
    status: isOneOf(RUN_STATUSES, p.status ?? '') ? p.status : undefined,
    resource: p.resource || undefined,
    range: timeRangeFromParams(params, DEFAULT_RUNS_RANGE),
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize !== undefined && PAGE_SIZES.some((allowed) => allowed === size) ? size : undefined,
  };
}

/** A filter change starts again at the first page. */
export function changeRunsView(params: URLSearchParams, patch: Record<string, string | undefined>): URLSearchParams {
  return patchSearchParams(params, { pageIndex: undefined, ...patch }, { pageIndex: '0' });
}
