import { UserCog } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Spec §2 /settings/users, guarded by read on identities (spec §6). */
export const routes: AppRoute[] = [
  {
    path: 'settings/users',
    load: () => import('./users-page'),
    feature: 'settings.users',
    nav: { label: 'Users', section: 'settings', icon: UserCog },
    access: { resource: 'identities', action: 'read' },
  },
];
