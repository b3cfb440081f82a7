export { DataTable } from './data-table';
export type { DataTableProps, ServerPagination } from './data-table';
export { clampPageNumber, pageCountOf, Pagination } from './pagination';
export type { PaginationState } from './pagination';
export { PAGE_SIZE_STORAGE_KEY, readStoredPageSize, storePageSize, usePersistedPageSize } from './page-size';
export { sortingFromParams, sortingToParams } from './sorting';
export { nextVirtualPageSize } from './virtual-pagination';
export type { VirtualPagination } from './virtual-pagination';
export type { ColumnDef, SortingState } from '@tanstack/react-table';
