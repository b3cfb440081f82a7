import { ConfigPage } from '@web/features/catalog/components';
import { ChangeFeed, useChangeFeed } from './change-feed';

/** Spec §2 /catalog/{id}/changes: one config's changes (and, as asked, its related configs'), under its header and tabs. */
export default function ConfigChangesPage() {
  return <ConfigPage tab="changes">{(config) => <ScopedFeed configId={config.id} />}</ConfigPage>;
}

function ScopedFeed({ configId }: { configId: string }) {
  const feed = useChangeFeed(configId);
  return <ChangeFeed feed={feed} scoped />;
}
