import type { ComponentType } from 'react';
import type { AppRoute } from '../route-types';
import type { SessionUser } from '../session';

export interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ className?: string }>;
}

export interface Nav {
  main: NavItem[];
  settings: NavItem[];
}

const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label, 'en', { sensitivity: 'base' });

/** May the person read this resource? (spec §6: a menu entry needs read access to its page's resource). */
export type CanRead = (resource: NonNullable<AppRoute['access']>['resource']) => boolean;

/**
 * The sidebar's entries: main items in spec §2 order (their `order`), the Settings submenu sorted by
 * label; items of disabled features, of pages whose resource the person may not read (or whose `allows`
 * refuses them) and of pages of another sign-in mode (`authMode`, while the mode is unknown too) are left out.
 */
export function buildNav(
  routes: readonly AppRoute[],
  isEnabled: (feature: string | undefined) => boolean,
  canRead: CanRead = () => true,
  authMode?: string,
  /** The signed-in person, for pages that say themselves who may open them (`allows`). */
  user?: SessionUser,
): Nav {
  const main: (NavItem & { order: number })[] = [];
  const settings: NavItem[] = [];
  for (const route of routes) {
    if (!route.nav || !isEnabled(route.feature)) continue;
    if (route.allows ? !(user && route.allows(user)) : route.access && !canRead(route.access.resource)) continue;
    if (route.authMode && route.authMode !== authMode) continue;
    const item = { label: route.nav.label, to: route.nav.to ?? `/${route.path}`, icon: route.nav.icon };
    if (route.nav.section === 'settings') settings.push(item);
    else main.push({ ...item, order: route.nav.order ?? Number.MAX_SAFE_INTEGER });
  }
  main.sort((a, b) => a.order - b.order || byLabel(a, b));
  settings.sort(byLabel);
  return { main: main.map(({ order: _order, ...item }) => item), settings };
}

/** Where '/' leads: the first main area, else the first settings page, else nowhere (spec §2, DESIGN §9). */
export function homeTarget(nav: Nav): string | undefined {
  return nav.main[0]?.to ?? nav.settings[0]?.to;
}
