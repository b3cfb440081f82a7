import { escapeIdentifier } from 'pg';

/**
 * A table whose rows carry their own schedule and next due time (canaries, scrapers, topologies,
 * playbook schedules, system jobs). The names are fixed in code, never taken from input; they are still
 * checked against a plain-identifier pattern and quoted, so a typo fails at start, not as SQL.
 */
export interface ScheduledTableColumns {
  table: string;
  /** Primary key column (uuid, text or integer). */
  id: string;
  /** Text column holding the schedule (cron or `@every …`). */
  schedule: string;
  /** timestamptz NOT NULL: when the row is next due. */
  nextRunAt: string;
  /** text: the instance holding the lease. */
  leaseOwner: string;
  /** timestamptz: when the lease expires unless renewed. */
  leaseUntil: string;
  /** timestamptz: the slot of the last run that finished (optional). */
  lastRunAt?: string;
  /** A display name, copied to job_history.resource_name (optional). */
  name?: string;
  /** boolean: only rows where it is true are due (optional). */
  enabled?: string;
  /** timestamptz: only rows where it is NULL are due (optional, soft delete). */
  deletedAt?: string;
}

/** The descriptor with every identifier already quoted for SQL. */
export interface ScheduledTable {
  readonly columns: Readonly<ScheduledTableColumns>;
  readonly sql: {
    table: string;
    id: string;
    schedule: string;
    nextRunAt: string;
    leaseOwner: string;
    leaseUntil: string;
    lastRunAt: string | undefined;
    name: string | undefined;
    /** Conditions that make a row active (enabled, not deleted), joined with AND; may be empty. */
    active: string[];
  };
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function quote(value: string, what: string): string {
  if (!IDENTIFIER.test(value)) throw new Error(`scheduled table ${what} ${JSON.stringify(value)} is not a plain lower-case SQL identifier`);
  return escapeIdentifier(value);
}

/** Validates and quotes a descriptor once, at definition time. */
export function defineScheduledTable(columns: ScheduledTableColumns): ScheduledTable {
  const optional = (value: string | undefined, what: string) => (value === undefined ? undefined : quote(value, what));
  const table = columns.table.split('.').map((part) => quote(part, 'table')).join('.');
  const enabled = optional(columns.enabled, 'enabled column');
  const deletedAt = optional(columns.deletedAt, 'deletedAt column');
  const active: string[] = [];
  if (enabled) active.push(`${enabled} IS TRUE`);
  if (deletedAt) active.push(`${deletedAt} IS NULL`);
  return {
    columns: Object.freeze({ ...columns }),
    sql: {
      table,
      id: quote(columns.id, 'id column'),
      schedule: quote(columns.schedule, 'schedule column'),
      nextRunAt: quote(columns.nextRunAt, 'nextRunAt column'),
      leaseOwner: quote(columns.leaseOwner, 'leaseOwner column'),
      leaseUntil: quote(columns.leaseUntil, 'leaseUntil column'),
      lastRunAt: optional(columns.lastRunAt, 'lastRunAt column'),
      name: optional(columns.name, 'name column'),
      active,
    },
  };
}

/**
 * A resource table of the usual shape (migrations 0005, 0007, 0010: id, name, schedule, next_run_at,
 * lease_owner, lease_until, last_run_at, deleted_at): canaries, scrapers, topologies.
 */
export function resourceScheduledTable(table: string): ScheduledTable {
  return defineScheduledTable({
    table,
    id: 'id',
    name: 'name',
    schedule: 'schedule',
    nextRunAt: 'next_run_at',
    leaseOwner: 'lease_owner',
    leaseUntil: 'lease_until',
    lastRunAt: 'last_run_at',
    deletedAt: 'deleted_at',
  });
}
