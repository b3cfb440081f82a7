import { useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { ScraperEditor } from '../editor/scraper-editor';
import { SCRAPERS_PATH, scraperPath } from '../paths';
import { useSaveScraper } from '../queries';
import { ScraperBreadcrumb } from './breadcrumb';

/**
 * /catalog/scrapers/new (spec §2 "Resource spec editor"): the type picker, then Form and Code. A saved
 * scraper opens on its own page, where Run Now finds its items.
 */
export default function NewScraperPage() {
  const navigate = useNavigate();
  const save = useSaveScraper(null);
  return (
    <Page title="Scrapers">
      <ScraperBreadcrumb name="New" />
      <ScraperEditor
        row={null}
        readOnly={false}
        saving={save.isPending}
        saveError={save.error}
        onSubmit={(write) => save.mutate(write, { onSuccess: (saved) => void navigate(scraperPath(saved.id)) })}
        onBack={() => void navigate(SCRAPERS_PATH)}
        onDelete={undefined}
      />
    </Page>
  );
}
