/**
 * Virtual pagination (spec §9): instead of page buttons the table scrolls, and at the end of the loaded
 * rows it asks the page for a page size twice as large. The page keeps the size (usually in the URL)
 * and fetches the first `pageSize` rows again, so sorting and filters stay server-side.
 */
export interface VirtualPagination {
  mode: 'virtual';
  pageSize: number;
  /** All rows the server has; without it the table cannot know more exist. */
  totalRows: number;
  onPageSizeChange: (next: number) => void;
}

/**
 * The size to ask for once the user is at the end, or null when asking makes no sense: every row is
 * here, or the current size has not been filled yet (its fetch is still on its way, or the server
 * had fewer rows than it counted). The second rule is what keeps one scroll from asking twice.
 */
export function nextVirtualPageSize(loadedRows: number, pageSize: number, totalRows: number): number | null {
  if (loadedRows >= totalRows || loadedRows < pageSize) return null;
  return Math.max(1, pageSize) * 2;
}
