import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';

export const AGENT_SORT_COLUMNS = ['name', 'version', 'hostname', 'last_seen', 'health', 'checks', 'configs', 'created_at'] as const;
export type AgentSortColumn = (typeof AGENT_SORT_COLUMNS)[number];

/** The Agents page's state, all of it in the URL (DESIGN §7): list filters, the open agent (spec §2 `?id`). */
export interface AgentFilters {
  /** Name, hostname or description contains this. */
  search: string;
  sortBy: AgentSortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  /** Undefined: the size the person last chose for tables (spec §9: persisted locally). */
  pageSize: number | undefined;
  /** The agent whose detail is open (spec §2: /settings/agents?id={id}). */
  id: string | undefined;
  /** The Add agent dialog is open. */
  adding: boolean;
}

const URL_DEFAULTS: Record<string, string> = { sortBy: 'name', sortOrder: 'asc', pageIndex: '0' };

export function parseAgentFilters(params: URLSearchParams): AgentFilters {
  const p = readSearchParams(params);
  const size = readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  return {
    search: p.q ?? '',
    sortBy: pickOption(p.sortBy, AGENT_SORT_COLUMNS, 'name'),
    sortOrder: p.sortOrder === 'desc' ? 'desc' : 'asc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize !== undefined && PAGE_SIZES.some((allowed) => allowed === size) ? size : undefined,
    id: p.id?.trim() || undefined,
    adding: p.dialog === 'add',
  };
}

export type AgentsPatch = Partial<Record<'q' | 'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'id' | 'dialog', string | undefined>>;

/** A new search or sort starts at the first page; paging, the open agent and the dialog keep the rest. */
export function applyAgentsChange(params: URLSearchParams, patch: AgentsPatch): URLSearchParams {
  const resetsPage = 'q' in patch || 'sortBy' in patch || 'sortOrder' in patch;
  return patchSearchParams(params, resetsPage ? { ...patch, pageIndex: undefined } : patch, URL_DEFAULTS);
}

/** Leaving the detail also drops its job-history paging and open run. */
export function closeAgentPatch(): AgentsPatch & Record<string, undefined> {
  return { id: undefined, jobsPage: undefined, jobsPageSize: undefined, job: undefined };
}
