import { Page } from '@web/app/layout/page';
import { CatalogSections } from '../components/catalog-sections';
import { ChangeFeed, useChangeFeed } from './change-feed';

/** Spec §2 /catalog/changes: the changes of every config in the catalog. */
export default function ChangesPage() {
  const feed = useChangeFeed(undefined);
  return (
    <Page title="Config Changes" extra={<CatalogSections />} onRefresh={() => void feed.query.refetch()} refreshing={feed.query.isFetching}>
      <ChangeFeed feed={feed} scoped={false} />
    </Page>
  );
}
