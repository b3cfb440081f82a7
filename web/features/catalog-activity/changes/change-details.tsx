import { AttachEvidenceButton } from '@web/features/incidents/link/attach-evidence';
import { Loading } from '@web/ui/primitives/loading';
import { useChangeDetail } from './queries';
import { DiffView } from './diff-view';

function hasContent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function Json({ title, value }: { title: string; value: unknown }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
      <pre className="max-h-64 overflow-auto rounded-md border border-slate-200 bg-white p-3 font-mono text-xs">{JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}

/** An opened change: its diff, merge patch and details, read when the row opens (spec §3 Config change). */
export function ChangeDetails({ id }: { id: string }) {
  const detail = useChangeDetail(id);
  if (detail.isLoading) return <Loading className="py-4" />;
  if (detail.error) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {detail.error.message}
      </p>
    );
  }
  const change = detail.data;
  const empty = !change || (!change.diff && !hasContent(change.patches) && !hasContent(change.details));
  const attach = <AttachEvidenceButton target={{ type: 'config_change', config_change_id: id, summary: 'this change with its diff' }} />;
  if (empty) {
    return (
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-slate-500">No details found</p>
        {attach}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">{attach}</div>
      {change.diff ? (
        <section aria-label="Diff" className="flex flex-col gap-1">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Diff</h4>
          <DiffView diff={change.diff} />
        </section>
      ) : null}
      {hasContent(change.patches) ? <Json title="Patches" value={change.patches} /> : null}
      {hasContent(change.details) ? <Json title="Details" value={change.details} /> : null}
    </div>
  );
}
