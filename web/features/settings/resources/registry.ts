import type { Resource } from '@common/rbac';
import type { ComponentType } from 'react';
import { teamsResource } from '@web/features/teams/resource';
import type { ResourceAccess } from './access';
import type { ResourceRow } from './values';

/** A column of a generic resource list. */
export interface ResourceColumn {
  key: string;
  header: string;
  /**
   * Dates follow the user's date format and time zone; 'source' marks rows managed outside the UI
   * (spec §4: shown as linked, not editable).
   */
  kind?: 'text' | 'date' | 'source';
}

/** A field of a generic resource's edit form. */
export interface ResourceField {
  name: string;
  label: string;
  /** 'code': a YAML or JSON object (shown as YAML, written as JSON), checked on blur and on change. */
  kind?: 'text' | 'textarea' | 'code';
  required?: boolean;
  /** Spec §5: name and namespace cannot be edited once the resource exists. */
  immutable?: boolean;
  /** The value of a new form, and what a blank optional field is saved as. */
  defaultValue?: string;
  placeholder?: string;
  hint?: string;
}

/** What an extra tab of the detail page receives. */
export interface ResourceTabProps {
  resource: SettingsResource;
  id: string;
  row: ResourceRow;
  /** What the signed-in person may do with this resource. */
  access: ResourceAccess;
  /** The source of a row managed outside the console (read-only, spec §4); undefined for UI rows. */
  linked: string | undefined;
}

/** A tab of the detail page after Spec (spec "Generic resource editor": Members, for teams only). */
export interface ResourceTab {
  /** Its value in the URL (?tab=members). */
  id: string;
  label: string;
  /** Loaded when first shown, so the shell's route table stays small. */
  load: () => Promise<{ default: ComponentType<ResourceTabProps> }>;
}

/**
 * A table edited through the generic pages /settings/{table} and /settings/{table}/{id} (spec §2).
 * Features register theirs here; an entry gives the list, the form and the Settings menu entry.
 */
export interface SettingsResource {
  /** The relation the form writes (and the URL segment). */
  table: string;
  /** The relation the list reads when it differs, e.g. a summary view with counts. */
  listTable?: string;
  /** Menu entry and page title, e.g. 'Teams'. */
  label: string;
  /** One row's kind in messages and buttons, e.g. 'Team' ('Team updated successfully'). */
  singular: string;
  icon: ComponentType<{ className?: string }>;
  /** Spec §6 feature area, e.g. 'settings.teams'. */
  feature?: string;
  /** Spec §6 RBAC objects: reading the pages, and creating, updating and deleting rows. */
  access: { read: Resource; write: Resource };
  columns: ResourceColumn[];
  fields: ResourceField[];
  /** Column naming a row in the breadcrumb and messages; defaults to 'name'. */
  titleKey?: string;
  tabs?: readonly ResourceTab[];
}

/**
 * The registered tables, one entry per feature that owns one. Scrapers are not generic (spec §2), they
 * live under /catalog/scrapers.
 */
export const settingsResources: readonly SettingsResource[] = [teamsResource];

/** The entry of a table; only registered tables are reachable, so a URL cannot name any other relation. */
export function findResource(table: string | undefined, registry: readonly SettingsResource[] = settingsResources): SettingsResource | undefined {
  return table === undefined ? undefined : registry.find((resource) => resource.table === table);
}
