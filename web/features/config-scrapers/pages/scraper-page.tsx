import { Pencil, Play, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import NotFoundPage from '@web/app/pages/not-found-page';
import { useAccess } from '@web/app/session';
import { CatalogSections } from '@web/features/catalog-activity/components/catalog-sections';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { linkedSource } from '@web/features/settings/resources/values';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Loading } from '@web/ui/primitives/loading';
import { ItemsTab } from '../components/items-tab';
import { RunsTab } from '../components/runs-tab';
import { Ago } from '@web/features/catalog-activity/components/ago';
import { LastRunCell, scheduleText } from '../components/scraper-cells';
import { ScraperEditor } from '../editor/scraper-editor';
import { specTypes } from '../model/scraper-types';
import { EDITOR_FEATURE, SCRAPER_TABS, SCRAPERS_PATH } from '../paths';
import { useDeleteScraper, useRunScraper, useSaveScraper, useScraper } from '../queries';
import type { ScraperSummary } from '../schema';
import { ScraperBreadcrumb } from './breadcrumb';

export default function ScraperPage() {
  const { id } = useParams();
  if (!id) return <NotFoundPage />;
  return <ScraperDetail key={id} id={id} />;
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="truncate text-sm text-slate-800">{children}</dd>
    </div>
  );
}

function Summary({ scraper }: { scraper: ScraperSummary }) {
  return (
    <dl aria-label="Scraper details" className="grid grid-cols-2 gap-4 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-4 xl:grid-cols-8">
      <Item label="Namespace">{scraper.namespace}</Item>
      <Item label="Types">{specTypes(scraper.spec).join(', ') || '-'}</Item>
      <Item label="Schedule">{scheduleText(scraper.schedule)}</Item>
      <Item label="Source">
        <SourceBadge source={scraper.source} />
      </Item>
      <Item label="Last run">
        <LastRunCell row={scraper} />
      </Item>
      <Item label="Next run">{scraper.schedule ? <Ago value={scraper.next_run_at} /> : 'when asked'}</Item>
      <Item label="Items">
        <span className="tabular-nums">{scraper.item_count}</span>
      </Item>
      <Item label="Created">
        <Ago value={scraper.created_at} />
      </Item>
      {scraper.description ? (
        <div className="col-span-full">
          <Item label="Description">{scraper.description}</Item>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * /catalog/scrapers/{id} (spec §2): the scraper's details, its items, its runs with counts and errors,
 * Run Now, and the editor in the Spec tab (?tab=spec). A scraper applied from a file, a CRD or an agent
 * is linked: shown, not editable (spec §4).
 */
function ScraperDetail({ id }: { id: string }) {
  const navigate = useNavigate();
  const query = useScraper(id);
  const scraper = query.data ?? null;
  const name = scraper?.name ?? '';
  const [params, setParams] = useUrlParams();
  const { can } = useAccess();
  const flags = useFeatureFlags();
  const linked = linkedSource(scraper);
  const save = useSaveScraper(id);
  const remove = useDeleteScraper(id, name);
  const run = useRunScraper(id, name);
  const [confirming, setConfirming] = useState(false);

  const editorShown = flags.isEnabled(EDITOR_FEATURE);
  const editable = linked === undefined && can('config_scrapers', 'update');
  const deletable = linked === undefined && can('config_scrapers', 'delete');
  const tabs = [
    { id: SCRAPER_TABS.items, label: 'Items' },
    { id: SCRAPER_TABS.runs, label: 'Job History' },
    ...(editorShown ? [{ id: SCRAPER_TABS.spec, label: 'Spec' }] : []),
  ];
  const tab = pickOption(readSearchParams(params).tab, tabs.map((item) => item.id), SCRAPER_TABS.items);
  // A tab's own state (its page, an open run, the editor's mode) does not follow to another tab.
  const openTab = (next: string) =>
    setParams((current) =>
      patchSearchParams(current, { tab: next, pageIndex: undefined, pageSize: undefined, details: undefined, mode: undefined, type: undefined }, { tab: SCRAPER_TABS.items }),
    );
  const onDelete = deletable ? () => setConfirming(true) : undefined;

  if (query.isLoading) {
    return (
      <Page title="Scrapers" extra={<CatalogSections />}>
        <Loading />
      </Page>
    );
  }
  if (!scraper) {
    return (
      <Page title="Scrapers" extra={<CatalogSections />}>
        <ScraperBreadcrumb name={id} />
        <p role="alert" className="text-sm text-red-600">
          {query.error?.message ?? 'No scraper with this id: it may have been deleted.'}
        </p>
      </Page>
    );
  }

  return (
    <Page title="Scrapers" extra={<CatalogSections />} onRefresh={() => void query.refetch()} refreshing={query.isFetching}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <ScraperBreadcrumb name={name}>{linked ? <SourceBadge source={linked} /> : null}</ScraperBreadcrumb>
        <div className="flex items-center gap-2">
          {can('config_scrapers', 'update') ? (
            <Button variant="primary" size="sm" onClick={() => run.mutate()} disabled={run.isPending} aria-busy={run.isPending}>
              <Play className="size-3.5" aria-hidden="true" />
              {run.isPending ? 'Running...' : 'Run Now'}
            </Button>
          ) : null}
          {editable && editorShown && tab !== SCRAPER_TABS.spec ? (
            <Button size="sm" onClick={() => openTab(SCRAPER_TABS.spec)}>
              <Pencil className="size-3.5" aria-hidden="true" />
              Edit
            </Button>
          ) : null}
          {onDelete && tab !== SCRAPER_TABS.spec ? (
            <Button size="sm" variant="danger" onClick={onDelete}>
              <Trash2 className="size-3.5" aria-hidden="true" />
              Delete
            </Button>
          ) : null}
        </div>
      </div>
      {linked ? (
        <p role="note" className="mb-4 max-w-2xl rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
          This scraper comes from {linked} and is read-only here: change it where it is defined.
        </p>
      ) : null}
      <div className="flex flex-col gap-4">
        <Summary scraper={scraper} />
        <TabBar label="Scraper sections" tabs={tabs} value={tab} onValueChange={openTab}>
          {tab === SCRAPER_TABS.runs ? (
            <RunsTab id={id} />
          ) : tab === SCRAPER_TABS.spec ? (
            <ScraperEditor
              row={scraper}
              readOnly={!editable}
              saving={save.isPending}
              saveError={save.error}
              onSubmit={(write) => save.mutate(write, { onSuccess: () => openTab(SCRAPER_TABS.items) })}
              onBack={() => void navigate(SCRAPERS_PATH)}
              onDelete={onDelete}
            />
          ) : (
            <ItemsTab id={id} />
          )}
        </TabBar>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Catalog Scraper"
        description={`Are you sure you want to delete ${name}? Its items are deleted with it; their changes stay in the history.`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate(SCRAPERS_PATH) })}
      />
    </Page>
  );
}
