import type { ReactNode } from 'react';
import { ConfigLink } from '@web/features/catalog/components';
import { AttachEvidenceButton } from '@web/features/incidents/link/attach-evidence';
import { Dialog } from '@web/ui/primitives/dialog';
import { Loading } from '@web/ui/primitives/loading';
import { Ago } from '../components/ago';
import { SeverityBadge } from '../components/badges';
import { useInsight } from './queries';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-800">{children}</dd>
    </div>
  );
}

/** One insight: what it says, about which config, since when, and the analysis as the analyzer wrote it. */
export function InsightDetailsDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const insight = useInsight(id);
  const row = insight.data;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={row ? `Insight: ${row.analyzer}` : 'Insight'}
      size="large"
      footer={row ? <AttachEvidenceButton target={{ type: 'config_analysis', config_analysis_id: row.id, summary: `the insight ${row.analyzer} on ${row.config_name ?? 'its config'}` }} /> : undefined}
    >
      {!row ? (
        insight.isLoading ? (
          <Loading />
        ) : (
          <p>{insight.error?.message ?? 'No details found'}</p>
        )
      ) : (
        <div className="flex flex-col gap-5">
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
            <Item label="Config">
              <ConfigLink config={{ id: row.config_id, name: row.config_name, type: row.config_type, health: row.config_health, deleted_at: row.config_deleted_at }} showHealth />
            </Item>
            <Item label="Type">{row.analysis_type}</Item>
            <Item label="Severity">
              <SeverityBadge severity={row.severity} />
            </Item>
            <Item label="Status">{row.status}</Item>
            <Item label="First seen">
              <Ago value={row.first_observed} />
            </Item>
            <Item label="Last seen">
              <Ago value={row.last_observed} />
            </Item>
            <Item label="Source">{row.source ?? '-'}</Item>
          </dl>
          {row.summary ? <p className="text-sm font-medium text-slate-900">{row.summary}</p> : null}
          {row.message ? <p className="whitespace-pre-wrap text-sm text-slate-700">{row.message}</p> : null}
          {row.analysis !== null && row.analysis !== undefined ? (
            <section aria-label="Analysis" className="flex flex-col gap-1">
              <h3 className="text-sm font-semibold">Analysis</h3>
              <pre className="max-h-64 overflow-auto rounded bg-slate-50 p-3 font-mono text-xs">{JSON.stringify(row.analysis, null, 2)}</pre>
            </section>
          ) : null}
        </div>
      )}
    </Dialog>
  );
}
