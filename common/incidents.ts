/**
 * Incident values of spec §3 and §4, shared by the server (the link API's checks) and the console. The
 * database checks the same lists (migration 0012).
 */

export const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
/** Spec §4: a new incident is open unless told otherwise. */
export const DEFAULT_INCIDENT_STATUS: IncidentStatus = 'open';
/** Statuses after which an incident no longer counts as active. */
export const FINISHED_STATUSES: readonly IncidentStatus[] = ['resolved', 'closed'];

/** Spec §3, mildest first. */
export const INCIDENT_SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'critical', 'blocker'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
/** What the create forms offer (spec §4: low … blocker). */
export const SEVERITY_CHOICES: readonly IncidentSeverity[] = ['low', 'medium', 'high', 'critical', 'blocker'];

export const INCIDENT_TYPES = ['availability', 'performance', 'reliability', 'security', 'cost', 'integration', 'compliance', 'technicalDebt'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

/** Spec §9: the link dialog creates low-severity availability incidents unless the user picks otherwise. */
export const LINK_DEFAULTS = { severity: 'low', type: 'availability' } as const satisfies { severity: IncidentSeverity; type: IncidentType };

export const HYPOTHESIS_STATUSES = ['proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven'] as const;
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];
export const DEFAULT_HYPOTHESIS_STATUS: HypothesisStatus = 'possible';

/** root → factor → solution. */
export const HYPOTHESIS_TYPES = ['root', 'factor', 'solution'] as const;
export type HypothesisType = (typeof HYPOTHESIS_TYPES)[number];
/** The type a child of a hypothesis of this type has (solutions have none). */
export function childHypothesisType(type: HypothesisType): HypothesisType | undefined {
  return type === 'root' ? 'factor' : type === 'factor' ? 'solution' : undefined;
}

export const EVIDENCE_TYPES = ['log', 'config', 'topology', 'check', 'config_analysis', 'config_change', 'comment'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** Spec §4: the timeline's event names. */
export const INCIDENT_EVENTS = [
  'incident.created',
  'responder.created',
  'evidence.created',
  'incident.status_updated',
  'evidence.done_definition_added',
  'incident_status.updated',
  'responder.commented',
  'hypothesis.created',
  'hypothesis.status_updated',
] as const;
export type IncidentEvent = (typeof INCIDENT_EVENTS)[number];

/** Spec §5: the Link to Incident dialog's messages. */
export const LINK_MESSAGES = {
  incident: 'Must select or create an incident',
  severity: 'Please select incident severity',
  type: 'Please select an incident type',
  hypothesis: 'Must select or create a hypothesis',
} as const;

/** Labels people read ('technicalDebt' → 'Technical debt'). */
export function incidentLabel(value: string): string {
  const spaced = value.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
