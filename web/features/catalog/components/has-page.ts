import { appRoutes } from '@web/app/routes';

/**
 * Whether a page with exactly this route path is in this build (design §9: no link to a page that is not
 * built). Catalog pages of other features (changes, scrapers) appear here as they land.
 */
export function hasPage(path: string): boolean {
  return appRoutes.some((route) => route.path === path);
}
