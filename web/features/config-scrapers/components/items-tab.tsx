import { useMemo } from 'react';
import { DEFAULT_PAGE_SIZE, SHELL_PAGE_SIZES } from '@common/constants';
import { appRoutes } from '@web/app/routes';
import { ConfigHealthBadge, ConfigLink } from '@web/features/catalog/components';
import { patchSearchParams, readInteger, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { useScraperItems } from '../queries';
import type { ScraperItem } from '../schema';
import { Ago } from '@web/features/catalog-activity/components/ago';

/** The catalog's item page, when this build has it (spec §2 /catalog/{id}). */
const hasItemPage = () => appRoutes.some((route) => route.path === 'catalog/:id');

function insights(analysis: ScraperItem['analysis']): number {
  return Object.values(analysis ?? {}).reduce((sum, count) => sum + count, 0);
}

function columns(linked: boolean): ColumnDef<ScraperItem>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      enableSorting: false,
      cell: ({ row }) => (linked ? <ConfigLink config={row.original} showHealth /> : <span>{row.original.name ?? row.original.id}</span>),
    },
    { accessorKey: 'type', header: 'Type', enableSorting: false },
    { id: 'health', header: 'Health', enableSorting: false, cell: ({ row }) => <ConfigHealthBadge health={row.original.health} /> },
    { accessorKey: 'status', header: 'Status', enableSorting: false },
    { id: 'changes', header: 'Changes (7d)', enableSorting: false, cell: ({ row }) => <span className="tabular-nums">{row.original.changes ?? 0}</span> },
    { id: 'insights', header: 'Insights', enableSorting: false, cell: ({ row }) => <span className="tabular-nums">{insights(row.original.analysis)}</span> },
    { id: 'last_scraped_time', header: 'Last scraped', enableSorting: false, cell: ({ row }) => <Ago value={row.original.last_scraped_time} /> },
  ];
}

/** The items a scraper found (config items whose scraper_id is this scraper), in server pages kept in the URL. */
export function ItemsTab({ id }: { id: string }) {
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const pageIndex = readInteger(read.pageIndex, 0);
  const pageSize = readInteger(read.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  const items = useScraperItems(id, { pageIndex, pageSize });
  const tableColumns = useMemo(() => columns(hasItemPage()), []);
  return (
    <div className="flex flex-col gap-3">
      {items.error ? (
        <p role="alert" className="text-sm text-red-600">
          {items.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label="Items"
        data={items.data?.rows ?? []}
        columns={tableColumns}
        getRowId={(row) => row.id}
        isLoading={items.isLoading}
        emptyText="No items yet: Run Now scrapes the sources"
        pagination={{
          pageIndex,
          pageSize,
          totalRows: items.data?.total ?? 0,
          pageSizeOptions: SHELL_PAGE_SIZES,
          persistKey: false,
          onChange: (next) =>
            setParams((current) => patchSearchParams(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) }, { pageIndex: '0', pageSize: String(DEFAULT_PAGE_SIZE) })),
        }}
      />
    </div>
  );
}
