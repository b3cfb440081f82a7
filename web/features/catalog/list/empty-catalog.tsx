import { Link } from 'react-router';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { hasPage } from '../components/has-page';

export const NO_CONFIGS_TEXT = 'No config items found';

/**
 * Nothing to list: with filters, say so; without, the catalog is empty and a scraper fills it (its page
 * when this build has it, else how to apply one).
 */
export function EmptyCatalog({ filtered, onClear }: { filtered: boolean; onClear?: () => void }) {
  if (filtered) {
    return (
      <EmptyState
        title={NO_CONFIGS_TEXT}
        description="No item matches these filters."
        action={
          onClear ? (
            <button type="button" onClick={onClear} className="text-sm font-medium text-blue-700 hover:underline">
              Clear filters
            </button>
          ) : undefined
        }
      />
    );
  }
  return (
    <EmptyState
      title={NO_CONFIGS_TEXT}
      description={
        hasPage('catalog/scrapers') ? (
          <>
            Items come from scrapers: <Link to="/catalog/scrapers" className="font-medium text-blue-700 hover:underline">add a scraper</Link> to fill the catalog.
          </>
        ) : (
          <>
            Items come from scrapers: apply a ScrapeConfig with <code className="rounded bg-slate-100 px-1">watchkeeper apply -f scraper.yaml</code> to fill the catalog.
          </>
        )
      }
    />
  );
}
