import { Ago } from '@web/features/catalog-activity/components/ago';
import { JobStatusBadge } from '@web/features/settings/jobs/status-badge';
import type { ScraperSummary } from '../schema';

/** The status and time of a scraper's latest run (job history) and its errors, or 'never'. */
export function LastRunCell({ row }: { row: ScraperSummary }) {
  if (!row.last_job_status) return <span className="text-slate-400">never</span>;
  const errors = row.last_job_error_count ?? 0;
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <JobStatusBadge status={row.last_job_status} />
      <Ago value={row.last_job_time} />
      {errors > 0 ? <span className="text-xs text-red-600 tabular-nums">{errors === 1 ? '1 error' : `${errors} errors`}</span> : null}
    </span>
  );
}

/** A schedule as written; none (@never) means the scraper runs only when asked. */
export function scheduleText(schedule: string | null): string {
  return schedule ?? 'on demand';
}
