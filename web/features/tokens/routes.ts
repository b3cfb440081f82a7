import { KeyRound } from 'lucide-react';
import type { AppRoute } from '@web/app/route-types';

/** Spec §2 /settings/tokens: any signed-in person manages their own tokens (an admin sees everyone's). */
export const routes: AppRoute[] = [
  {
    path: 'settings/tokens',
    load: () => import('./tokens-page'),
    nav: { label: 'Tokens', section: 'settings', icon: KeyRound },
  },
];
