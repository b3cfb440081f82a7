import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { Tooltip } from '@web/ui/primitives/tooltip';
import { appRoutes } from '../routes';
import { useAccess } from '../session';

/**
 * Spec §2 top bar: a notifications bell to /notifications, shown when that page is in this build, its
 * feature is on and the person may read notifications (the same rule as its sidebar entry).
 */
export function NotificationsBell() {
  const flags = useFeatureFlags();
  const { ready, can } = useAccess();
  const route = appRoutes.find((candidate) => candidate.path === 'notifications');
  if (!route || !ready || !flags.ready || !flags.isEnabled(route.feature) || !can('notifications', 'read')) return null;
  return (
    <Tooltip content="Notifications">
      <Link
        to="/notifications"
        aria-label="Notifications"
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <Bell className="size-4" aria-hidden="true" />
      </Link>
    </Tooltip>
  );
}
