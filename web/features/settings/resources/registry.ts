import type { ComponentType } from 'react';

/** A column of a generic resource list. */
export interface ResourceColumn {
  key: string;
  header: string;
  /** Dates follow the user's date format and time zone. */
  kind?: 'text' | 'date';
}

/** A field of a generic resource's edit form. */
export interface ResourceField {
  name: string;
  label: string;
  kind?: 'text' | 'textarea';
  required?: boolean;
  /** Spec §5: name and namespace cannot be edited once the resource exists. */
  immutable?: boolean;
  defaultValue?: string;
  placeholder?: string;
}

/**
 * A table edited through the generic pages /settings/{table} and /settings/{table}/{id} (spec §2).
 * Features register theirs here; an entry gives the list, the form and the Settings menu entry.
 */
export interface SettingsResource {
  table: string;
  /** Menu entry and page title, e.g. 'Teams'. */
  label: string;
  icon: ComponentType<{ className?: string }>;
  /** Spec §6 feature area, e.g. 'settings.teams'. */
  feature?: string;
  columns: ResourceColumn[];
  fields: ResourceField[];
  /** Column naming a row in the breadcrumb; defaults to 'name'. */
  titleKey?: string;
}

/**
 * The registered tables. Empty until the features owning canaries, topologies, teams… land; those add one
 * entry each. Scrapers are not generic (spec §2), they live under /catalog/scrapers.
 */
export const settingsResources: readonly SettingsResource[] = [];

/** The entry of a table; only registered tables are reachable, so a URL cannot name any other relation. */
export function findResource(table: string | undefined, registry: readonly SettingsResource[] = settingsResources): SettingsResource | undefined {
  return table === undefined ? undefined : registry.find((resource) => resource.table === table);
}
