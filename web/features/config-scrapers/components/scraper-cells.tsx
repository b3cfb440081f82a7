import { Ago } from '@web/features/catalog-activity/components/ago';
import { JobStatusBadge } from '@web/features/settings/jobs/status-badge';
import { useScraperItemCount, useScraperLastRun } from '../queries';

/** The status and time of a scraper's latest run (job history), or 'never'. */
export function LastRunCell({ id }: { id: string }) {
  const last = useScraperLastRun(id);
  if (last.isLoading) return <span className="text-slate-400">…</span>;
  if (last.error) return <span className="text-xs text-red-600" title={last.error.message}>unavailable</span>;
  if (!last.data) return <span className="text-slate-400">never</span>;
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <JobStatusBadge status={last.data.status} />
      <Ago value={last.data.time_start} />
    </span>
  );
}

/** How many items the scraper has now. */
export function ItemCountCell({ id }: { id: string }) {
  const count = useScraperItemCount(id);
  if (count.isLoading) return <span className="text-slate-400">…</span>;
  if (count.error) return <span className="text-xs text-red-600" title={count.error.message}>unavailable</span>;
  return <span className="tabular-nums">{count.data ?? 0}</span>;
}

/** A schedule as written; none (@never) means the scraper runs only when asked. */
export function scheduleText(schedule: string | null): string {
  return schedule ?? 'on demand';
}
