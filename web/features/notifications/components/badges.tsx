import { Badge } from '@web/ui/primitives/badge';
import { Tooltip } from '@web/ui/primitives/tooltip';
import { RULE_STATUS, ruleStatusOf, sendStatusLabel, sendStatusTone } from '../model/format';

/** A rule's status: OK, Failing, Error (the engine's last problem on hover and in the accessible name) or Disabled. */
export function RuleStatusBadge({ status, error }: { status: string | null | undefined; error?: string | null | undefined }) {
  const known = RULE_STATUS[ruleStatusOf(status)];
  const badge = (
    <span tabIndex={error ? 0 : undefined} aria-label={error ? `${known.label}: ${error}` : undefined} className="rounded-full focus-visible:outline-2 focus-visible:outline-blue-600">
      <Badge tone={known.tone}>{known.label}</Badge>
    </span>
  );
  return error ? <Tooltip content={<span className="block max-w-sm whitespace-pre-wrap">{error}</span>}>{badge}</Tooltip> : badge;
}

export function SendStatusBadge({ status }: { status: string }) {
  return <Badge tone={sendStatusTone(status)}>{sendStatusLabel(status)}</Badge>;
}
