/** The list's sortable columns (views_summary columns). */
export const SORTABLE = ['name', 'namespace', 'title', 'sidebar', 'source', 'last_ran', 'updated_at'] as const;
export type SortColumn = (typeof SORTABLE)[number];

export interface ViewListQuery {
  search: string;
  sortBy: SortColumn;
  desc: boolean;
  pageIndex: number;
  pageSize: number;
}

export const viewSettingsKeys = {
  all: ['view-settings'] as const,
  list: (query: ViewListQuery) => ['view-settings', 'list', query] as const,
  one: (id: string) => ['view-settings', 'one', id] as const,
  schema: ['view-settings', 'schema'] as const,
  validate: (body: string) => ['view-settings', 'validate', body] as const,
};

/** Throws a PostgREST error as an Error a page can show. */
export function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}
