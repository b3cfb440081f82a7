import { Bell } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

const access = { resource: 'notifications', action: 'read' } as const;
const feature = 'notifications';

/**
 * Spec §2 notifications pages: the rules, one rule's history, one resource's history, the silences and a
 * new silence (spec §6: write access, else the Unauthorized page). The 'notifications' flag hides them all.
 */
export const routes: AppRoute[] = [
  {
    path: 'notifications',
    load: () => import('./rules/rules-page'),
    feature,
    access,
    nav: { label: 'Notifications', section: 'main', icon: Bell, order: 8 },
  },
  { path: 'notifications/rules', load: () => import('./rules/rule-page'), feature, access },
  { path: 'notifications/resource/:resourceId', load: () => import('./resource/resource-page'), feature, access },
  { path: 'notifications/silences', load: () => import('./silences/silences-page'), feature, access },
  // The notifications tab of a config item (web/features/catalog/components/config-tabs.tsx).
  { path: 'catalog/:id/notifications', load: () => import('./tabs/config-notifications-page'), feature: 'config', access },
  { path: 'notifications/silences/add', load: () => import('./silences/add-silence-page'), feature, access: { resource: 'notifications', action: 'write' } },
];
