import { useAccess } from '@web/app/session';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { ResourceNotifications } from '../components/send-history';

/** Whether this person sees a resource's notifications (the feature is on and they may read them). */
export function useCanSeeNotifications(): boolean {
  const { can } = useAccess();
  const flags = useFeatureFlags();
  return flags.isEnabled('notifications') && can('notifications', 'read');
}

/** A component's (or a check's) notifications inside its page, when this person may see them. */
export function ResourceNotificationsSection({ resourceId, kind, heading = true }: { resourceId: string; kind: 'check' | 'config' | 'component'; heading?: boolean }) {
  if (!useCanSeeNotifications()) return null;
  return (
    <section aria-label="Notifications" className="flex flex-col gap-2">
      {heading ? <h2 className="text-sm font-semibold text-slate-900">Notifications</h2> : null}
      <ResourceNotifications resourceId={resourceId} kind={kind} />
    </section>
  );
}
