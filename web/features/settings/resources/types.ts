import type { Resource } from '@common/rbac';
import type { ComponentType } from 'react';

/*
 * The types of a generic settings resource (spec §2 "Generic resource editor"). A leaf module: features
 * that own a resource (teams, canaries, topologies…) import their types from here and nothing imports
 * back; the registry of entries is assembled where the app is composed (web/app/settings-resources.ts).
 */

/** A row of a generic resource as /api/db returns it. */
export type ResourceRow = Record<string, unknown>;

/** A value /api/db accepts in a JSON body. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ResourceWrite = Record<string, JsonValue>;

/** What the signed-in person may do with a resource (access.ts: useResourceAccess). */
export interface ResourceAccess {
  /** False while the session loads: nothing is decided yet. */
  ready: boolean;
  read: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
}

/** A column of a generic resource list. */
export interface ResourceColumn {
  key: string;
  header: string;
  /**
   * Dates follow the user's date format and time zone; 'source' marks rows managed outside the UI
   * (spec §4: shown as linked, not editable); 'agent' shows an agent id by the agent's name ('local' for
   * the nil uuid, spec §3).
   */
  kind?: 'text' | 'date' | 'source' | 'agent';
  /** A text computed from the row (e.g. a count read from a spec) instead of the `key` column's value. */
  value?: (row: ResourceRow) => string;
}

/** A field of a generic resource's edit form. */
export interface ResourceField {
  name: string;
  label: string;
  /**
   * 'code': a YAML or JSON object (shown as YAML, written as JSON), checked on blur and on change.
   * 'pairs': a key-value list (labels), written as an object of texts.
   */
  kind?: 'text' | 'textarea' | 'code' | 'pairs';
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

/** What a resource's own Spec editor receives (`SettingsResource.editor`). */
export interface ResourceEditorProps {
  resource: SettingsResource;
  /** The row being edited, or null for a new one. */
  row: ResourceRow | null;
  /** Linked rows and people without write access see the values without a way to change them. */
  readOnly: boolean;
  saving: boolean;
  /** The last failed save (a 400 names each problem's path, for the editor to show in place); null otherwise. */
  saveError: unknown;
  onSubmit: (write: ResourceWrite) => void;
  onBack: () => void;
  /** Asks for the delete confirmation; undefined for a new row or without delete access. */
  onDelete: (() => void) | undefined;
}

/**
 * Writes of a resource that has an API of its own instead of /api/db (canaries: /api/canary/canaries,
 * which checks the whole spec and keeps the checks in step). Failures throw, as the db client's do.
 */
export interface ResourceApi {
  save: (write: ResourceWrite, id: string | null) => Promise<void>;
  remove: (id: string) => Promise<void>;
}

/**
 * A table edited through the generic pages /settings/{table} and /settings/{table}/{id} (spec §2).
 * Features that own one export its entry; web/app/settings-resources.ts lists them. An entry gives the
 * list, the form and the Settings menu entry.
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
  /** The generic form's fields; unused when the resource has its own `editor`. */
  fields: ResourceField[];
  /** A Spec editor of its own instead of the generic form (loaded when a detail page opens). */
  editor?: () => Promise<{ default: ComponentType<ResourceEditorProps> }>;
  /** Saves and deletes through this API instead of /api/db. */
  api?: ResourceApi;
  /**
   * The Job History tab (spec "Generic resource editor"): the rows of job_histories whose resource_type
   * is this and resource_id the row's id; `emptyText` says honestly what is recorded.
   */
  jobHistory?: { resourceType: string; emptyText: string };
  /**
   * What the delete toast names (spec §8): the row ('{name} deleted successfully', the default) or the
   * resource kind ('{resource} deleted successfully').
   */
  deletedToast?: 'name' | 'resource';
  /** Column naming a row in the breadcrumb and messages; defaults to 'name'. */
  titleKey?: string;
  tabs?: readonly ResourceTab[];
}
