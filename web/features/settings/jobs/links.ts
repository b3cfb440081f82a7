import { appRoutes } from '@web/app/routes';

/** A page of this build whose route path is exactly `path` (no generic catch-all counts). */
function hasPage(path: string): boolean {
  return appRoutes.some((route) => route.path === path);
}

/** A generic settings resource registered for `table`: the app gave it a detail page /settings/{table}/{id}. */
function hasResource(table: string): boolean {
  return hasPage(`settings/${table}/:id`);
}

interface Destination {
  href: (id: string) => string;
  /** Whether that page exists in this build; a link to a page that does not exist is not shown. */
  available: () => boolean;
}

/** Where a job's resource lives, by resource type (spec §2 "Job history"). */
const RESOURCE_PATHS: Readonly<Record<string, Destination>> = {
  canary: { href: (id) => `/settings/canaries/${id}`, available: () => hasResource('canaries') },
  config_scraper: { href: (id) => `/catalog/scrapers/${id}`, available: () => hasPage('catalog/scrapers/:id') },
  catalog_scraper: { href: (id) => `/catalog/scrapers/${id}`, available: () => hasPage('catalog/scrapers/:id') },
  topology: { href: (id) => `/settings/topologies/${id}`, available: () => hasResource('topologies') },
  config: { href: (id) => `/catalog/${id}`, available: () => hasPage('catalog/:id') },
  playbook: { href: (id) => `/playbooks/${id}`, available: () => hasPage('playbooks/:id') },
};

/** The link of a job's resource, or undefined when its type is unknown or its page is not in this build. */
export function resourceHref(type: string | null, id: string | null, available: (type: string) => boolean = (t) => RESOURCE_PATHS[t]?.available() ?? false): string | undefined {
  if (!type || !id || !Object.hasOwn(RESOURCE_PATHS, type) || !available(type)) return undefined;
  return RESOURCE_PATHS[type]?.href(encodeURIComponent(id));
}

/** The agent's page (spec §2: /settings/agents?id=…), or undefined while the Agents page is not in this build. */
export function agentHref(id: string, available: () => boolean = () => hasPage('settings/agents')): string | undefined {
  return available() ? `/settings/agents?id=${encodeURIComponent(id)}` : undefined;
}
