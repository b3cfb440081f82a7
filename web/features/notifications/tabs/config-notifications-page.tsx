import { ConfigPage } from '@web/features/catalog/components/config-page';
import { ResourceNotifications } from '../components/send-history';

/** /catalog/{id}/notifications: the item's latest sends, with a link to all of them. */
export default function ConfigNotificationsPage() {
  return <ConfigPage tab="notifications">{(config) => <ResourceNotifications resourceId={config.id} kind="config" />}</ConfigPage>;
}
