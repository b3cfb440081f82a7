/**
 * Tables kept in memory and read again only where they changed: a read also takes its snapshot's xmin
 * (the oldest transaction it could not see); the next read takes the rows whose `xmin` is at or after
 * it (compared by age, so that transaction ids may wrap) and adds them to what it had. Every 5 minutes
 * the whole table is read again.
 */
export interface ReadMark {
  /** The snapshot xmin of the last read, as a 32-bit transaction id. */
  snapshotXmin: string;
  /** When the table was last read whole (ms since epoch). */
  fullReadAt: number;
}

const FULL_READ_MS = 5 * 60_000;

/** SQL for this statement's snapshot xmin as a 32-bit transaction id (select it `AS snapshot_xmin`). */
export const SNAPSHOT_XMIN = '(pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text';

export interface ReadPlan<S extends ReadMark> {
  /** The state this read adds to; undefined when it reads everything. */
  base: S | undefined;
  /** SQL condition on the row of `alias`: written since the base was read (`true` for a full read). */
  written(alias: string): string;
  /** The values the condition binds ($1). */
  params: unknown[];
  /** The mark this read leaves, given the snapshot xmin it saw. */
  mark(snapshotXmin: string): ReadMark;
}

export function planRead<S extends ReadMark>(previous: S | undefined, now = Date.now()): ReadPlan<S> {
  const base = previous !== undefined && now - previous.fullReadAt < FULL_READ_MS ? previous : undefined;
  return {
    base,
    written: (alias) => (base ? `age(${alias}.xmin) <= age($1::xid)` : 'true'),
    params: base ? [base.snapshotXmin] : [],
    mark: (snapshotXmin) => ({ snapshotXmin, fullReadAt: base ? base.fullReadAt : now }),
  };
}
