import { incidentLabel } from '@common/incidents';
import { Link } from 'react-router';
import { DiffView } from '@web/features/catalog-activity/changes/diff-view';
import { Badge, type BadgeTone } from '@web/ui/primitives/badge';
import { DateTime } from '@web/ui/primitives/date-time';
import type { Evidence } from '../api';

type Snapshot = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);
const obj = (value: unknown): Snapshot | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Snapshot) : undefined);

const HEALTH_TONES: Record<string, BadgeTone> = { healthy: 'success', unhealthy: 'danger', warning: 'warning', unknown: 'neutral' };

function HealthAtTheTime({ health, label = 'at the time' }: { health: string | undefined; label?: string }) {
  if (!health) return null;
  return (
    <span className="inline-flex items-center gap-1 text-xs text-slate-500">
      <Badge tone={HEALTH_TONES[health] ?? 'neutral'}>{incidentLabel(health)}</Badge>
      {label}
    </span>
  );
}

function Line({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-2 text-sm">
      <dt className="w-24 shrink-0 text-slate-500">{name}</dt>
      <dd className="min-w-0 break-words text-slate-800">{children}</dd>
    </div>
  );
}

/** A check as it was when attached: its status and the last result before that moment. */
function CheckEvidence({ snapshot, checkId }: { snapshot: Snapshot; checkId: string | null }) {
  const result = obj(snapshot.result);
  const status = str(snapshot.status);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {checkId ? (
          <Link to={`/health?checkId=${checkId}`} className="font-medium text-blue-700 hover:underline">
            {str(snapshot.name) ?? 'check'}
          </Link>
        ) : (
          <span className="font-medium">{str(snapshot.name) ?? 'check'}</span>
        )}
        <span className="text-xs text-slate-500">{str(snapshot.type)}</span>
        <HealthAtTheTime health={status} />
      </div>
      {result ? (
        <dl className="flex flex-col gap-1">
          <Line name="Result">
            {result.status === true ? 'passed' : 'failed'} <DateTime value={str(result.time) ?? null} className="text-slate-500" />
          </Line>
          {str(result.duration) ? <Line name="Duration">{str(result.duration)} ms</Line> : null}
          {str(result.message) ? <Line name="Message">{str(result.message)}</Line> : null}
          {str(result.error) ? <Line name="Error"><span className="text-red-700">{str(result.error)}</span></Line> : null}
        </dl>
      ) : null}
    </div>
  );
}

function ConfigEvidence({ snapshot, configId }: { snapshot: Snapshot; configId: string | null }) {
  const config = snapshot.config;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {configId ? (
          <Link to={`/catalog/${configId}`} className="font-medium text-blue-700 hover:underline">
            {str(snapshot.name) ?? 'config'}
          </Link>
        ) : (
          <span className="font-medium">{str(snapshot.name) ?? 'config'}</span>
        )}
        <span className="text-xs text-slate-500">{str(snapshot.type)}</span>
        <HealthAtTheTime health={str(snapshot.health)} />
        {str(snapshot.status) ? <span className="text-xs text-slate-500">{str(snapshot.status)}</span> : null}
      </div>
      {config !== undefined && config !== null ? (
        <details className="rounded-md border border-slate-200">
          <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-slate-600">Config when attached</summary>
          <pre aria-label="Config when attached" className="max-h-80 overflow-auto border-t border-slate-200 p-3 font-mono text-xs">
            {JSON.stringify(config, null, 2)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}

function ChangeEvidence({ snapshot }: { snapshot: Snapshot }) {
  const configId = str(snapshot.config_id);
  const diff = str(snapshot.diff);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{str(snapshot.change_type)}</span>
        <span className="text-slate-500">on</span>
        {configId ? (
          <Link to={`/catalog/${configId}`} className="text-blue-700 hover:underline">
            {str(snapshot.config_name) ?? 'config'}
          </Link>
        ) : null}
        {str(snapshot.severity) ? <Badge>{str(snapshot.severity)}</Badge> : null}
        <DateTime value={str(snapshot.created_at) ?? null} className="text-xs text-slate-500" />
      </div>
      {str(snapshot.summary) ? <p className="text-sm text-slate-700">{str(snapshot.summary)}</p> : null}
      {diff ? <DiffView diff={diff} /> : null}
    </div>
  );
}

function InsightEvidence({ snapshot }: { snapshot: Snapshot }) {
  const configId = str(snapshot.config_id);
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{str(snapshot.analyzer)}</span>
        <span className="text-xs text-slate-500">{str(snapshot.analysis_type)}</span>
        {str(snapshot.severity) ? <Badge tone="warning">{str(snapshot.severity)}</Badge> : null}
        {str(snapshot.status) ? <span className="text-xs text-slate-500">{str(snapshot.status)} at the time</span> : null}
        {configId ? (
          <Link to={`/catalog/${configId}`} className="text-blue-700 hover:underline">
            {str(snapshot.config_name) ?? 'config'}
          </Link>
        ) : null}
      </div>
      {str(snapshot.message) ? <p className="text-slate-700">{str(snapshot.message)}</p> : null}
    </div>
  );
}

function ComponentEvidence({ snapshot, componentId }: { snapshot: Snapshot; componentId: string | null }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      {componentId ? (
        <Link to={`/topology/${componentId}`} className="font-medium text-blue-700 hover:underline">
          {str(snapshot.name) ?? 'component'}
        </Link>
      ) : (
        <span className="font-medium">{str(snapshot.name) ?? 'component'}</span>
      )}
      <span className="text-xs text-slate-500">{str(snapshot.type)}</span>
      <HealthAtTheTime health={str(snapshot.health)} />
      {str(snapshot.status_reason) ? <span className="text-xs text-slate-600">{str(snapshot.status_reason)}</span> : null}
    </div>
  );
}

function LogEvidence({ evidence }: { evidence: Snapshot }) {
  const lines = Array.isArray(evidence.lines) ? evidence.lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))) : str(evidence.message) ? [str(evidence.message) ?? ''] : [];
  if (lines.length === 0) return null;
  const where = [str(evidence.source), str(evidence.query) ? `search "${str(evidence.query)}"` : undefined].filter(Boolean).join(' · ');
  return (
    <div className="flex flex-col gap-1">
      {where ? <span className="text-xs text-slate-500">Log excerpt from {where}</span> : null}
      <pre aria-label="Log excerpt" className="max-h-60 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">
        {lines.join('\n')}
      </pre>
    </div>
  );
}

/** One evidence, rendered by its type from the snapshot the server kept when it was attached. */
export function EvidenceView({ evidence }: { evidence: Evidence }) {
  const snapshot = obj(evidence.evidence.snapshot);
  switch (evidence.type) {
    case 'check':
      return snapshot ? <CheckEvidence snapshot={snapshot} checkId={evidence.check_id} /> : null;
    case 'config':
      return snapshot ? <ConfigEvidence snapshot={snapshot} configId={evidence.config_id} /> : null;
    case 'config_change':
      return snapshot ? <ChangeEvidence snapshot={snapshot} /> : null;
    case 'config_analysis':
      return snapshot ? <InsightEvidence snapshot={snapshot} /> : null;
    case 'topology':
      return snapshot ? <ComponentEvidence snapshot={snapshot} componentId={evidence.component_id} /> : null;
    case 'log':
      return <LogEvidence evidence={evidence.evidence} />;
    default:
      return null;
  }
}
