import type { AppRoute } from '@web/app/route-types';

/**
 * The identity pages (spec §2 auth pages). All but the profile settings are public: no sign-in, no
 * sidebar, and their code (with the flow renderer and WebAuthn) loads only with them.
 */
export const routes: AppRoute[] = [
  { path: 'login', layout: 'public', load: () => import('./pages/login-page') },
  { path: 'registration', layout: 'public', load: () => import('./pages/registration-page') },
  { path: 'recovery', layout: 'public', load: () => import('./pages/recovery-page') },
  { path: 'verification', layout: 'public', load: () => import('./pages/verification-page') },
  { path: 'error', layout: 'public', load: () => import('./pages/flow-error-page') },
  { path: 'bad-session', layout: 'public', load: () => import('./pages/bad-session-page') },
  { path: 'auth-state-checker', layout: 'public', load: () => import('./pages/auth-state-checker-page') },
  { path: 'profile-settings', load: () => import('./pages/profile-settings-page') },
];
