import type { Action, Resource } from '@common/rbac';
import type { ComponentType } from 'react';
import type { SessionUser } from './session';

/**
 * One page of the console. Feature areas export their pages from `web/features/<area>/routes.ts`; the
 * router (web/app/router.tsx) collects them. A page that has nothing real behind it is not listed.
 */
export interface AppRoute {
  /** React Router path, e.g. 'settings/jobs' or 'settings/:table/:id' (no leading slash). */
  path: string;
  /** The page module, loaded lazily; its default export is the page component. */
  load: () => Promise<{ default: ComponentType }>;
  /**
   * Feature-flag area (spec §6): the page and its menu entry vanish when '{feature}.disable' is 'true'.
   * Areas are plain names ('health', 'config'); settings pages are 'settings.<page>' and some inherit
   * their area's flag (web/lib/feature-flags.ts: FEATURE_PARENTS).
   */
  feature?: string;
  /** Menu entry, when the page has one. */
  nav?: NavEntry;
  /**
   * Spec §6 route guard: the page needs this access; without it the Unauthorized page shows and the
   * menu entry is hidden (read access is checked for the menu).
   */
  access?: { resource: Resource; action: Action | 'write' };
  /**
   * Who may open the page when no resource's access says it (hosted mode's Settings → Organizations:
   * platform administrators and organization admins, docs/HOSTED.md). Replaces `access` for the route
   * guard and the menu entry; nobody signed in may not.
   */
  allows?: (user: SessionUser) => boolean;
  /**
   * 'public': shown without sign-in and without the sidebar (the sign-in pages of spec §2). 'bare': for
   * signed-in people only, like the default, but without the sidebar (spec §2 /view/health); the page
   * draws no top bar either. Default: inside the app layout, for signed-in people only.
   */
  layout?: 'public' | 'bare';
  /**
   * The sign-in mode the page belongs to (GET /api/auth/mode): its menu entry shows only in that mode
   * (Settings → Organizations is hosted mode's, docs/HOSTED.md).
   */
  authMode?: 'oidc';
}

export interface NavEntry {
  /** Text of the menu entry, e.g. 'Jobs History'. */
  label: string;
  /** Main sidebar, or the Settings submenu (sorted by label there). */
  section: 'main' | 'settings';
  /** lucide-react icon component. */
  icon: ComponentType<{ className?: string }>;
  /** Link target when it differs from the route path (e.g. a default query). */
  to?: string;
  /** Position in the main sidebar (spec §2 order: Dashboard, Health, Incidents, Catalog, Logs, Playbooks, Applications). */
  order?: number;
}
