import type pg from 'pg';
import { agentsPushing, pushedByAgentMessage } from '../../platform/deletable';
import { isRecord } from '../../platform/errors';
import { qualifiedName, type KubeKind } from './kinds';
import { KubeError } from './status';
import { AGENT_KINDS, LAST_APPLIED, OWN_ANNOTATIONS, type Row } from './api-support';

/** The stored rows the Kubernetes-style API reads and the annotations it keeps with them. */

/** `metadataOnly` leaves the spec out (NULL): its redaction costs ~0.2 ms a row, and a Table of metadata never shows it. */
export const readRows = async (db: Pick<pg.Pool, 'query'>, kind: KubeKind, where: { namespace?: string; name?: string; metadataOnly?: boolean }): Promise<Row[]> => {
  const values: unknown[] = [];
  const fields = where.metadataOnly ? 'r.id, r.name, r.namespace, r.labels, NULL::jsonb AS spec, r.source, r.created_at, r.rv, r.extra' : 'r.*';
  let sql = `SELECT ${fields}, a.annotations FROM (${kind.rows}) AS r LEFT JOIN kube_annotations a ON a.resource_id = r.id WHERE true`;
  if (where.namespace !== undefined) sql += ` AND r.namespace = $${values.push(where.namespace)}`;
  if (where.name !== undefined) sql += ` AND r.name = $${values.push(where.name)}`;
  const { rows } = await db.query<Row>(`${sql} ORDER BY r.namespace, r.name`, values);
  return rows;
};

/**
 * The annotations of a written object to keep (none of ours, `watchkeeper.dev/…`): texts only, and the
 * last-applied configuration with its secrets blanked as reads show them (a Secret's values, the spec's
 * password-like fields), so the annotation never answers what the object itself does not.
 */
export const annotationsToStore = async (pool: Pick<pg.Pool, 'query'>, kind: KubeKind, given: unknown): Promise<Record<string, string>> => {
  if (given === undefined || given === null) return {};
  if (!isRecord(given)) throw new KubeError('BadRequest', 'metadata.annotations: must be a map of names to texts');
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (key.startsWith(OWN_ANNOTATIONS) || value === null) continue;
    if (typeof value !== 'string') throw new KubeError('BadRequest', `metadata.annotations.${key}: must be a text`);
    out[key] = value;
  }
  const applied = out[LAST_APPLIED];
  if (applied !== undefined) {
    let document: unknown;
    try {
      document = JSON.parse(applied);
    } catch {
      document = undefined;
    }
    if (!isRecord(document)) {
      delete out[LAST_APPLIED]; // not what kubectl writes: kept nowhere rather than kept unread
    } else {
      kind.redactApplied?.(document);
      // A spec's password-like fields as the console masks them (a Secret's values are blanked above).
      const { rows } = kind.topLevel ? { rows: [{ redacted: document }] } : await pool.query<{ redacted: unknown }>('SELECT redact_secrets($1::jsonb) AS redacted', [JSON.stringify(document)]);
      out[LAST_APPLIED] = `${JSON.stringify(rows[0]?.redacted ?? {})}\n`;
    }
  }
  return out;
};

/**
 * The refusals (409 Conflict, as the console's delete: server/platform/deletable.ts) of the rows an agent
 * runs and pushes up: deleted here, the agent's next push would bring them back.
 */
export const pushedRefusals = async (pool: pg.Pool, kind: KubeKind, rows: Row[], suffix = ''): Promise<KubeError[]> => {
  const agentKind = AGENT_KINDS[kind.kind];
  if (!agentKind) return [];
  const agents = await agentsPushing(pool, agentKind.table, rows.map((row) => row.id));
  return rows.flatMap((row) => {
    const agent = agents.get(row.id);
    return agent === undefined
      ? []
      : [new KubeError('Conflict', `${qualifiedName(kind)} "${row.name}": ${pushedByAgentMessage(agentKind.noun, agent)}${suffix}`, { name: row.name, group: kind.group, kind: kind.plural })];
  });
};
