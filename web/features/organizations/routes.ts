import type { AppRoute } from '@web/app/route-types';

/** Hosted mode's landing after choosing an organization (spec §2); public: it only clears and goes on. */
export const routes: AppRoute[] = [{ path: 'organizations/orgs-switched', layout: 'public', load: () => import('./pages/orgs-switched-page') }];
