import { CalendarClock, Flag, ListOrdered } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';
import { settingsResources } from '@web/app/settings-resources';
import type { SettingsResource } from './resources/types';

/**
 * Each registered generic resource gets its list (with the Settings menu entry) and its detail page, both
 * guarded by the resource's read object (spec §6); the pages are the generic ones.
 */
export function resourceRoutes(registry: readonly SettingsResource[]): AppRoute[] {
  return registry.flatMap((resource): AppRoute[] => {
    const access = { resource: resource.access.read, action: 'read' } as const;
    return [
      {
        path: `settings/${resource.table}`,
        load: () => import('./resources/resource-list-page'),
        feature: resource.feature,
        nav: { label: resource.label, section: 'settings', icon: resource.icon },
        access,
      },
      { path: `settings/${resource.table}/:id`, load: () => import('./resources/resource-detail-page'), feature: resource.feature, access },
    ];
  });
}

/**
 * The platform's settings pages (spec §2) and those of each table the app registers
 * (web/app/settings-resources.ts). Static paths outrank the generic `settings/:table`.
 */
export const routes: AppRoute[] = [
  {
    path: 'settings/jobs',
    load: () => import('./jobs/jobs-page'),
    feature: 'settings.job_history',
    nav: { label: 'Jobs History', section: 'settings', icon: CalendarClock },
    access: { resource: 'database', action: 'read' },
  },
  {
    path: 'settings/event-queue-status',
    load: () => import('./event-queue/event-queue-page'),
    feature: 'settings.event_queue_status',
    nav: { label: 'Event Queue', section: 'settings', icon: ListOrdered },
    access: { resource: 'database', action: 'read' },
  },
  {
    path: 'settings/feature-flags',
    load: () => import('./feature-flags/feature-flags-page'),
    feature: 'settings.feature_flags',
    nav: { label: 'Feature Flags', section: 'settings', icon: Flag },
    access: { resource: 'feature_flags', action: 'read' },
  },
  ...resourceRoutes(settingsResources),
  { path: 'settings/:table', load: () => import('./resources/resource-list-page') },
  { path: 'settings/:table/:id', load: () => import('./resources/resource-detail-page') },
];
