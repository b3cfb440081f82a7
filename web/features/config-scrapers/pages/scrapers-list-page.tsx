import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAccess } from '@web/app/session';
import { CatalogSections } from '@web/features/catalog-activity/components/catalog-sections';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { QueryPage } from '@web/ui/query-page';
import { Ago } from '@web/features/catalog-activity/components/ago';
import { LastRunCell, scheduleText } from '../components/scraper-cells';
import { specTypes } from '../model/scraper-types';
import { useScrapers } from '../queries';
import type { ScraperSummary } from '../schema';
import { EDITOR_FEATURE, NEW_SCRAPER_PATH, scraperPath } from '../paths';

function columns(): ColumnDef<ScraperSummary>[] {
  return [
    {
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <Link to={scraperPath(row.original.id)} onClick={(event) => event.stopPropagation()} className="font-medium text-blue-700 hover:underline">
          {row.original.name}
        </Link>
      ),
    },
    { accessorKey: 'namespace', header: 'Namespace' },
    { id: 'types', header: 'Types', accessorFn: (row) => specTypes(row.spec).join(', ') },
    { id: 'schedule', header: 'Schedule', accessorFn: (row) => scheduleText(row.schedule) },
    { accessorKey: 'source', header: 'Source', cell: ({ row }) => <SourceBadge source={row.original.source} /> },
    { id: 'last_run', header: 'Last Run', accessorFn: (row) => row.last_job_time ?? '', cell: ({ row }) => <LastRunCell row={row.original} /> },
    { accessorKey: 'item_count', header: 'Items', cell: ({ row }) => <span className="tabular-nums">{row.original.item_count}</span> },
    { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <Ago value={row.original.created_at} /> },
  ];
}

/** Spec §2 /catalog/scrapers: every scraper with its types, schedule, source, last run and item count. */
export default function ScrapersListPage() {
  const scrapers = useScrapers();
  const navigate = useNavigate();
  const { can } = useAccess();
  const flags = useFeatureFlags();
  const tableColumns = useMemo(columns, []);
  const canAdd = can('config_scrapers', 'create') && flags.isEnabled(EDITOR_FEATURE);
  return (
    <QueryPage
      title="Scrapers"
      query={scrapers}
      extra={
        <>
          <CatalogSections />
          <span className="flex-1" />
          {canAdd ? (
            <Link to={NEW_SCRAPER_PATH} className={cn(buttonBase, 'h-8 gap-1.5 bg-blue-600 px-3 text-sm text-white hover:bg-blue-700')}>
              <Plus className="size-4" aria-hidden="true" />
              Add scraper
            </Link>
          ) : null}
        </>
      }
    >
      <DataTable
        aria-label="Scrapers"
        data={scrapers.data ?? []}
        columns={tableColumns}
        getRowId={(row) => row.id}
        isLoading={scrapers.isLoading}
        emptyText="No scrapers found"
        onRowClick={(row) => void navigate(scraperPath(row.id))}
      />
    </QueryPage>
  );
}
