/** Where a job's resource lives, by resource type (spec §2 "Job history"). */
const RESOURCE_PATHS: Readonly<Record<string, (id: string) => string>> = {
  canary: (id) => `/settings/canaries/${id}`,
  config_scraper: (id) => `/catalog/scrapers/${id}`,
  catalog_scraper: (id) => `/catalog/scrapers/${id}`,
  topology: (id) => `/settings/topologies/${id}`,
  config: (id) => `/catalog/${id}`,
  playbook: (id) => `/playbooks/${id}`,
};

export function resourceHref(type: string | null, id: string | null): string | undefined {
  if (!type || !id || !Object.hasOwn(RESOURCE_PATHS, type)) return undefined;
  return RESOURCE_PATHS[type]?.(encodeURIComponent(id));
}

export function agentHref(id: string): string {
  return `/settings/agents?id=${encodeURIComponent(id)}`;
}
