import { z } from 'zod';
import { INCIDENT_SEVERITIES, INCIDENT_TYPES } from '../../../../common/incidents';
import type { Issue } from '../../../platform/http/errors';
import { specProblems } from '../../../platform/spec-rows';

const text = z.string().trim().min(1, 'must not be empty');
const labels = z.record(z.string(), z.string(), { message: 'must be a mapping of label to value' });

/** Which resources a rule watches: every field given must match (name may use * as a wildcard). */
const selector = z
  .object({ name: text.optional(), namespace: text.optional(), type: text.optional(), labels: labels.optional() })
  .strict();
export type RuleSelector = z.infer<typeof selector>;

/**
 * `kind: IncidentRule` spec (docs/INCIDENTS.md#rules): open an incident when a check fails N runs in a
 * row, or a component or config item reaches one of the given healths, for resources matched by selector.
 */
export const ruleSpecSchema = z
  .object({
    checks: z.array(selector).optional(),
    components: z.array(selector).optional(),
    configs: z.array(selector).optional(),
    /** Checks: how many of the latest results must all have failed. */
    failures: z.number({ message: 'must be a number from 1 to 100' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(1),
    /** Components and configs: the healths that open an incident. */
    health: z.array(z.enum(['unhealthy', 'warning', 'unknown'], { message: 'must be unhealthy, warning or unknown' })).min(1, 'must name at least one health').default(['unhealthy']),
    template: z
      .object({
        title: text.max(500).optional(),
        description: z.string().max(10_000).optional(),
        type: z.enum(INCIDENT_TYPES, { message: `must be one of ${INCIDENT_TYPES.join(', ')}` }).default('availability'),
        severity: z.enum(INCIDENT_SEVERITIES, { message: `must be one of ${INCIDENT_SEVERITIES.join(', ')}` }).default('low'),
      })
      .strict()
      .default({ type: 'availability', severity: 'low' }),
  })
  .strict();
export type RuleSpec = z.infer<typeof ruleSpecSchema>;

/** A rule must watch something; checked on the raw spec, so it is reported with the other problems. */
function watchesSomething(spec: unknown): boolean {
  if (!spec || typeof spec !== 'object') return false;
  return ['checks', 'components', 'configs'].some((key) => {
    const list: unknown = Reflect.get(spec, key);
    return Array.isArray(list) && list.length > 0;
  });
}

export function parseRuleSpec(spec: unknown): { spec?: RuleSpec; errors: Issue[] } {
  const parsed = ruleSpecSchema.safeParse(spec);
  const errors = parsed.success ? [] : specProblems(parsed.error.issues);
  if (!watchesSomething(spec)) errors.push({ path: 'spec.checks', message: 'a rule watches checks, components or configs: give at least one selector' });
  return parsed.success && errors.length === 0 ? { spec: parsed.data, errors } : { errors };
}

/** `{{name}}`, `{{type}}`, `{{health}}` … from the resource, in a rule's title or description. */
export function fillTemplate(template: string, values: Record<string, string | null | undefined>): string {
  return template.replace(/\{\{\s*\.?([a-z_]+)\s*\}\}/gi, (_, key: string) => values[key.toLowerCase()] ?? '');
}
