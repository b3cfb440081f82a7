import type { PickableType } from '@web/features/canaries/editor/type-picker';
import type { JsonSchema } from '@web/features/canaries/model/json-schema';

/** Keys of a ScrapeConfig spec that are not scraper types (server/features/catalog/spec.ts). */
export const SCRAPER_SPEC_FIELDS: readonly string[] = ['schedule', 'full', 'retention', 'logLevel'];

/** Icon names (web/ui/check-icon.tsx) of the scraper types this console runs; others get the generic one. */
const ICONS: Readonly<Record<string, string>> = {
  file: 'file',
  kubernetesFile: 'kubernetes',
  sql: 'database',
  http: 'globe',
  exec: 'terminal',
  git: 'git',
};

export type ScraperTypeInfo = PickableType;

/**
 * The scraper types of GET /api/catalog/scrapers/schema: every spec property that is a list of entries,
 * labelled by its description (the server's label, e.g. 'Kubernetes manifests'), in the server's order.
 */
export function scraperTypesOf(schema: JsonSchema): ScraperTypeInfo[] {
  return Object.entries(schema.properties ?? {})
    .filter(([key, property]) => !SCRAPER_SPEC_FIELDS.includes(key) && property.type === 'array')
    .map(([key, property]) => ({ type: key, label: property.description?.trim() || key, icon: Object.hasOwn(ICONS, key) ? (ICONS[key] ?? key) : key }));
}

/** The scraper types a spec uses (its keys that are lists), for the list's Types column. */
export function specTypes(spec: unknown): string[] {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return [];
  return Object.entries(spec)
    .filter(([key, value]) => !SCRAPER_SPEC_FIELDS.includes(key) && Array.isArray(value))
    .map(([key]) => key);
}
