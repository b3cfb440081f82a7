import { incidentLabel } from '@common/incidents';
import { Badge, type BadgeTone } from '@web/ui/primitives/badge';

const STATUS_TONES: Record<string, BadgeTone> = {
  new: 'info',
  open: 'danger',
  investigating: 'warning',
  mitigated: 'info',
  resolved: 'success',
  closed: 'neutral',
};

const SEVERITY_TONES: Record<string, BadgeTone> = {
  info: 'neutral',
  warning: 'warning',
  low: 'info',
  medium: 'warning',
  high: 'danger',
  critical: 'danger',
  blocker: 'danger',
};

const HYPOTHESIS_TONES: Record<string, BadgeTone> = {
  proven: 'success',
  likely: 'info',
  possible: 'neutral',
  unlikely: 'warning',
  improbable: 'warning',
  disproven: 'danger',
};

export function IncidentStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{incidentLabel(status)}</Badge>;
}

export function SeverityBadge({ severity }: { severity: string }) {
  return (
    <Badge tone={SEVERITY_TONES[severity] ?? 'neutral'} className={severity === 'critical' || severity === 'blocker' ? 'font-semibold uppercase' : undefined}>
      {incidentLabel(severity)}
    </Badge>
  );
}

export function HypothesisStatusBadge({ status }: { status: string }) {
  return <Badge tone={HYPOTHESIS_TONES[status] ?? 'neutral'}>{incidentLabel(status)}</Badge>;
}
