import NotFoundPage from '@web/app/pages/not-found-page';
import { ConfigPage } from '@web/features/catalog/components/config-page';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { ResourceNotifications } from '../components/send-history';

/** /catalog/{id}/notifications: the item's latest sends, with a link to all of them (gone with the notifications flag). */
export default function ConfigNotificationsPage() {
  const flags = useFeatureFlags();
  if (flags.ready && !flags.isEnabled('notifications')) return <NotFoundPage />;
  return <ConfigPage tab="notifications">{(config) => <ResourceNotifications resourceId={config.id} kind="config" />}</ConfigPage>;
}
