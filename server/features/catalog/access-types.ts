import type { AnalysisInput, ChangeInput } from './types';

/**
 * Access data a scraper reports beside its configs (docs/CATALOG.md, "Access and logins"), in config-db's
 * `full: true` form: each result is a document whose `config` is the item and whose other keys carry
 * `external_users`, `external_groups`, `external_user_groups`, `external_roles`, `config_access` and
 * `access_logs` (also `users`, `groups`, `user_groups`, `roles`, `access`, `logs`, `config_access_logs`).
 * Users, groups and roles are matched by their aliases; access rows and logins point at a config item by
 * `external_config_id: {config_type, external_id}` (or `config_id`), defaulting to the document's own item.
 */

/** A config item as an access row names it: by uuid, or by type and external id. */
export interface ConfigRef {
  configId?: string;
  externalId?: string;
  type?: string;
}

/** A user, group or role as a source reports it. */
export interface EntityInput {
  where: string;
  id?: string;
  aliases: string[];
  name?: string;
  /** user_type, email, account_id / group_type / role_type, description: the table's own columns. */
  fields: Record<string, string | null>;
}

export interface UserGroupInput {
  where: string;
  user: Principal;
  group: Principal;
}

export interface Principal {
  id?: string;
  aliases: string[];
}

export interface AccessInput {
  where: string;
  config: ConfigRef;
  user?: Principal;
  group?: Principal;
  role?: Principal;
}

export interface LogInput {
  where: string;
  config: ConfigRef;
  user: Principal;
  role?: Principal;
  createdAt: Date;
  mfa: boolean;
  count: number;
  clientIp: string;
  verb: string | null;
  outcome: string;
  properties: Record<string, unknown> | null;
}

/** What one full-form document carries besides its config. */
export interface ScrapedAccess {
  where: string;
  users: EntityInput[];
  groups: EntityInput[];
  roles: EntityInput[];
  userGroups: UserGroupInput[];
  access: AccessInput[];
  logs: LogInput[];
}

export interface AccessSummary {
  users: { created: number; updated: number };
  groups: { created: number; updated: number };
  roles: { created: number; updated: number };
  userGroups: number;
  access: { created: number; unchanged: number; deleted: number };
  logins: number;
  skipped: number;
}

/** What a full-form document holds: its config (absent: an access-only document), changes, insights and access. */
export interface FullDocument {
  hasConfig: boolean;
  config: unknown;
  changes: ChangeInput[];
  analysis: AnalysisInput[];
  access: ScrapedAccess | null;
}
