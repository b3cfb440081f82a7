import type { AppRoute } from './route-types';

function isAppRoute(value: unknown): value is AppRoute {
  if (!value || typeof value !== 'object') return false;
  const path: unknown = Reflect.get(value, 'path');
  const load: unknown = Reflect.get(value, 'load');
  return typeof path === 'string' && typeof load === 'function';
}

/**
 * Reads the routes of every `web/features/<area>/routes.ts` module (exported as `routes`, or as the
 * default export). Entries that are not routes are skipped with a warning rather than crashing the shell.
 */
export function collectRoutes(modules: Record<string, unknown>): AppRoute[] {
  const routes: AppRoute[] = [];
  for (const [file, module] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    if (!module || typeof module !== 'object') continue;
    const list: unknown = Reflect.get(module, 'routes') ?? Reflect.get(module, 'default');
    if (!Array.isArray(list)) {
      console.warn(`${file} exports no routes array`);
      continue;
    }
    for (const entry of list) {
      if (isAppRoute(entry)) routes.push(entry);
      else console.warn(`${file} has an entry that is not a route`, entry);
    }
  }
  return routes;
}

/** The routes of the features in this build. Route modules only hold lazy loaders, so this stays small. */
export const appRoutes: AppRoute[] = collectRoutes(import.meta.glob('../features/*/routes.ts', { eager: true }));
