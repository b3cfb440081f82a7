import type { ReactNode } from 'react';
import { formatDate } from '@common/format/date';
import { formatDuration } from '@common/format/duration';
import { useDisplayPreferences } from '@web/lib/preferences';
import { Dialog } from '@web/ui/primitives/dialog';
import { Loading } from '@web/ui/primitives/loading';
import { AgentCell, ResourceCell } from './columns';
import type { JobHistory } from './schema';
import { JobStatusBadge } from './status-badge';

/** details.errors may be a list or a single message, depending on the job that wrote it. */
export function detailErrors(details: JobHistory['details']): string[] {
  const errors = details?.errors;
  if (typeof errors === 'string') return errors ? [errors] : [];
  if (!Array.isArray(errors)) return [];
  return errors.map((error) => (typeof error === 'string' ? error : JSON.stringify(error)));
}

function hasContent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function Json({ title, value }: { title: string; value: unknown }) {
  return (
    <section className="flex flex-col gap-1">
      <h3 className="text-sm font-semibold">{title}</h3>
      <pre className="max-h-64 overflow-auto rounded bg-slate-50 p-3 font-mono text-xs">{JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}

export interface JobDetailsDialogProps {
  job: JobHistory | null | undefined;
  loading: boolean;
  onClose: () => void;
}

/** Spec §2: a details dialog per job run (errors, summary, counts, duration, timings). */
export function JobDetailsDialog({ job, loading, onClose }: JobDetailsDialogProps) {
  const { dateFormat, timeZone } = useDisplayPreferences();
  const date = (value: string | null) => formatDate(value, dateFormat, timeZone) || '-';
  const errors = detailErrors(job?.details ?? null);
  const summary = job?.details?.summary;
  const scrapeSummary = job?.details?.scrape_summary;
  const empty = errors.length === 0 && !hasContent(summary) && !hasContent(scrapeSummary);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={job ? `Job: ${job.name}` : 'Job details'} size="large">
      {!job ? (
        loading ? <Loading /> : <p>No details found</p>
      ) : (
        <div className="flex flex-col gap-5">
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
            <Item label="Status">
              <JobStatusBadge status={job.status} />
            </Item>
            <Item label="Resource">
              <ResourceCell job={job} />
            </Item>
            <Item label="Agent">
              <AgentCell job={job} />
            </Item>
            <Item label="Hostname">{job.hostname ?? '-'}</Item>
            <Item label="Success count">{job.success_count}</Item>
            <Item label="Error count">{job.error_count}</Item>
            <Item label="Duration">{formatDuration(job.duration_millis) || '-'}</Item>
            <Item label="Started">{date(job.time_start)}</Item>
            <Item label="Ended">{date(job.time_end)}</Item>
            <Item label="Created">{date(job.created_at)}</Item>
          </dl>
          {empty ? <p className="text-sm text-slate-500">No details found</p> : null}
          {errors.length > 0 ? (
            <section className="flex flex-col gap-1">
              <h3 className="text-sm font-semibold">Errors</h3>
              <ul className="flex flex-col gap-1">
                {errors.map((error, index) => (
                  <li key={index} className="rounded bg-red-50 px-3 py-1.5 font-mono text-xs text-red-800">
                    {error}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {hasContent(summary) ? <Json title="Summary" value={summary} /> : null}
          {hasContent(scrapeSummary) ? <Json title="Scrape summary" value={scrapeSummary} /> : null}
        </div>
      )}
    </Dialog>
  );
}
