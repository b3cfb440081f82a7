import { DEFAULT_PAGE_SIZE } from '@common/constants';
import { PERMISSION_ACTIONS, SUBJECT_TYPES, type SubjectType } from '@common/rbac';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';

export const ALL = '';
export const EFFECTS = ['allow', 'deny'] as const;
export type Effect = (typeof EFFECTS)[number];

export const SORTABLE_COLUMNS = ['created_at', 'updated_at', 'subject_type', 'object', 'action', 'deny', 'until', 'source'] as const;
export type SortableColumn = (typeof SORTABLE_COLUMNS)[number];

export interface PermissionFilters {
  subjectType: SubjectType | typeof ALL;
  effect: Effect | typeof ALL;
  action: string;
  /** Free text matched against the subject, object, action and description. */
  search: string;
  sortBy: SortableColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  /** Undefined: the size the person last chose for tables (spec §9, persisted locally). */
  pageSize: number | undefined;
}

/** The open dialog: add, edit one row (by id), or explain an access decision. */
export type OpenDialog = { kind: 'none' } | { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'check' };

const URL_DEFAULTS: Record<string, string> = { sortBy: 'created_at', sortOrder: 'desc', pageIndex: '0' };

export function parsePermissionFilters(params: URLSearchParams): PermissionFilters {
  const p = readSearchParams(params);
  return {
    subjectType: pickOption(p.subjectType, [ALL, ...SUBJECT_TYPES], ALL),
    effect: pickOption(p.effect, [ALL, ...EFFECTS], ALL),
    action: pickOption(p.action, [ALL, ...PERMISSION_ACTIONS], ALL),
    search: p.q ?? '',
    sortBy: pickOption(p.sortBy, SORTABLE_COLUMNS, 'created_at'),
    sortOrder: p.sortOrder === 'asc' ? 'asc' : 'desc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize === undefined ? undefined : readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 }),
  };
}

export function parseOpenDialog(params: URLSearchParams): OpenDialog {
  const value = readSearchParams(params).dialog;
  if (value === 'add') return { kind: 'add' };
  if (value === 'check') return { kind: 'check' };
  if (value?.startsWith('edit:')) return { kind: 'edit', id: value.slice('edit:'.length) };
  return { kind: 'none' };
}

export function dialogParam(dialog: OpenDialog): string | undefined {
  if (dialog.kind === 'none') return undefined;
  return dialog.kind === 'edit' ? `edit:${dialog.id}` : dialog.kind;
}

export type FilterPatch = Partial<Record<'subjectType' | 'effect' | 'action' | 'q', string>>;

/** A filter change starts again at the first page. */
export function applyFilterChange(params: URLSearchParams, patch: FilterPatch): URLSearchParams {
  return patchSearchParams(params, { ...patch, pageIndex: undefined }, URL_DEFAULTS);
}

export function applyViewChange(params: URLSearchParams, patch: Partial<Record<'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'dialog', string | undefined>>): URLSearchParams {
  return patchSearchParams(params, patch, URL_DEFAULTS);
}
