import type pg from 'pg';
import { z } from 'zod';
import { EVIDENCE_TYPES, INCIDENT_SEVERITIES, INCIDENT_TYPES, LINK_MESSAGES } from '../../../common/incidents';
import type { Issue } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { incidentCreated } from './events';

const uuid = z.string().uuid('must be a UUID');
const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/**
 * The Link to Incident dialog's one call (spec §2, §4, §5): an existing incident or a new one, an existing
 * hypothesis or a new root, and the evidence, in one transaction, so a failure leaves nothing half-made.
 */
export const linkBody = z.object({
  incident: z
    .object({
      id: uuid.optional(),
      title: text(500).optional(),
      description: text(10_000).optional(),
      type: z.string().optional(),
      severity: z.string().optional(),
    })
    .default({}),
  hypothesis: z.object({ id: uuid.optional(), title: text(500).optional() }).default({}),
  evidence: z.object({
    type: z.enum(EVIDENCE_TYPES, { message: `must be one of ${EVIDENCE_TYPES.join(', ')}` }),
    description: text(10_000).optional(),
    check_id: uuid.optional(),
    config_id: uuid.optional(),
    config_change_id: uuid.optional(),
    config_analysis_id: uuid.optional(),
    component_id: uuid.optional(),
    /** What the client saw (a log excerpt, the time of a check result); the server adds its own snapshot. */
    evidence: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type LinkBody = z.infer<typeof linkBody>;

export interface LinkResult {
  incident_id: string;
  incident_number: string;
  hypothesis_id: string;
  evidence_id: string;
  created_incident: boolean;
  created_hypothesis: boolean;
}

/** Spec §5, field by field: every problem at once, so the dialog marks them all. */
export function linkIssues(body: LinkBody): Issue[] {
  const issues: Issue[] = [];
  const creating = !body.incident.id;
  if (creating) {
    if (!body.incident.title && !body.incident.description) issues.push({ path: 'body.incident', message: LINK_MESSAGES.incident });
    if (!body.incident.severity || !INCIDENT_SEVERITIES.some((value) => value === body.incident.severity)) issues.push({ path: 'body.incident.severity', message: LINK_MESSAGES.severity });
    if (!body.incident.type || !INCIDENT_TYPES.some((value) => value === body.incident.type)) issues.push({ path: 'body.incident.type', message: LINK_MESSAGES.type });
  } else if (!body.hypothesis.id && !body.hypothesis.title) {
    issues.push({ path: 'body.hypothesis', message: LINK_MESSAGES.hypothesis });
  }
  return issues;
}

export class LinkTargetMissing extends Error {}

/** Runs the link for `actor` (people.id): creates what is new, then the evidence with its snapshot. */
export async function linkEvidence(pool: pg.Pool, actor: string, body: LinkBody): Promise<LinkResult> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT set_config('watchkeeper.actor', $1, true)", [actor]);
    let incidentId = body.incident.id;
    let incidentNumber: string;
    let incidentTitle: string;
    const createdIncident = !incidentId;
    if (incidentId) {
      const { rows } = await client.query<{ incident_id: string; title: string }>('SELECT incident_id, title FROM incidents WHERE id = $1', [incidentId]);
      const found = rows[0];
      if (!found) throw new LinkTargetMissing(`incident ${incidentId} not found`);
      incidentNumber = found.incident_id;
      incidentTitle = found.title;
    } else {
      // A new incident named only by a description takes its first line as the title.
      const title = body.incident.title || (body.incident.description ?? '').split('\n')[0]?.slice(0, 500) || '';
      const { rows } = await client.query<{ id: string; incident_id: string; title: string }>(
        `INSERT INTO incidents (title, description, type, severity, created_by, commander_id) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id, incident_id, title`,
        [title, body.incident.description ?? null, body.incident.type, body.incident.severity, actor],
      );
      const created = rows[0];
      if (!created) throw new Error('incident insert returned no row');
      incidentId = created.id;
      incidentNumber = created.incident_id;
      incidentTitle = created.title;
    }

    let hypothesisId = body.hypothesis.id;
    const createdHypothesis = !hypothesisId;
    if (hypothesisId) {
      const { rows } = await client.query<{ incident_id: string }>('SELECT incident_id FROM hypotheses WHERE id = $1', [hypothesisId]);
      if (rows[0]?.incident_id !== incidentId) throw new LinkTargetMissing(`hypothesis ${hypothesisId} not found in ${incidentNumber}`);
    } else {
      // Spec §5: for a new incident a blank hypothesis takes the incident's title.
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO hypotheses (incident_id, type, title, status, created_by) VALUES ($1, 'root', $2, 'possible', $3) RETURNING id`,
        [incidentId, body.hypothesis.title || incidentTitle, actor],
      );
      hypothesisId = rows[0]?.id;
      if (!hypothesisId) throw new Error('hypothesis insert returned no row');
    }

    const e = body.evidence;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO evidences (hypothesis_id, type, description, evidence, check_id, config_id, config_change_id, config_analysis_id, component_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [hypothesisId, e.type, e.description ?? null, JSON.stringify(e.evidence ?? {}), e.check_id ?? null, e.config_id ?? null, e.config_change_id ?? null, e.config_analysis_id ?? null, e.component_id ?? null, actor],
    );
    const evidenceId = rows[0]?.id;
    if (!evidenceId) throw new Error('evidence insert returned no row');
    // The evidence is not part of the definition of done (it is set later in the console): only a new incident is announced.
    if (createdIncident) await incidentCreated(client, [incidentId]);
    return { incident_id: incidentId, incident_number: incidentNumber, hypothesis_id: hypothesisId, evidence_id: evidenceId, created_incident: createdIncident, created_hypothesis: createdHypothesis };
  });
}
