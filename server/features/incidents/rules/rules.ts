import type { Queryable } from '../../../platform/jobs/db';
import type { SpecRowTable } from '../../../platform/spec-rows';
import { parseRuleSpec, type RuleSpec } from './spec';

/** incident_rules as a spec row table: name, namespace, labels and the rule spec (saved by server/platform/spec-rows). */
export const INCIDENT_RULES: SpecRowTable = {
  table: 'incident_rules',
  noun: 'incident rule',
  problems: (spec) => parseRuleSpec(spec).errors,
  warnings: (spec) => parseRuleSpec(spec).warnings,
};

export interface StoredRule {
  id: string;
  name: string;
  spec: RuleSpec;
  /** Hosted mode (docs/HOSTED.md "Row-level security"): the rule matches its own organization's resources only. */
  organizationId?: string | undefined;
}

/**
 * The live rules whose specs still parse, in the order they are evaluated: priority (lowest first, as
 * Mission Control orders them), then name. A rule stored by an older version that no longer parses is skipped.
 */
export async function loadRules(db: Queryable): Promise<{ rules: StoredRule[]; broken: string[] }> {
  const { rows } = await db.query<{ id: string; name: string; spec: unknown; organization_id: string | null }>(
    'SELECT id, name, spec, organization_id FROM incident_rules WHERE deleted_at IS NULL ORDER BY name, namespace',
  );
  const rules: StoredRule[] = [];
  const broken: string[] = [];
  for (const row of rows) {
    const parsed = parseRuleSpec(row.spec);
    if (parsed.spec) rules.push({ id: row.id, name: row.name, spec: parsed.spec, organizationId: row.organization_id ?? undefined });
    else broken.push(row.name);
  }
  // A stable sort keeps the name order among rules of equal priority.
  rules.sort((a, b) => a.spec.priority - b.spec.priority);
  return { rules, broken };
}
