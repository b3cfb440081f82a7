import { z } from 'zod';
import { INCIDENT_SEVERITIES, INCIDENT_TYPES, type IncidentSeverity, type IncidentType } from '../../../../common/incidents';
import type { Issue } from '../../../platform/http/errors';
import { specProblems } from '../../../platform/spec-rows';
import { parseDuration } from '../../../platform/units';
import { selectorSchema, selectorWarnings, toRuleSelector, type Kind, type RuleSelector } from './selector';

export { fillTemplate } from './template';
export type { RuleSelector } from './selector';

const text = z.string().trim().min(1, 'must not be empty');
const list = z.union([z.string().transform((value) => value.split(',')), z.array(z.string())], { message: 'must be a list of texts' });

/** Go durations (`5m`, `1h30m`) as written in YAML, or a number of nanoseconds as Go's JSON writes a time.Duration. */
const duration = z
  .union([z.string(), z.number()], { message: 'must be a duration such as 5m or 1h30m' })
  .transform((value, ctx) => {
    const millis = typeof value === 'number' ? value / 1e6 : parseDuration(value);
    if (millis === undefined || millis < 0) {
      ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a duration such as 5m or 1h30m` });
      return z.NEVER;
    }
    return millis;
  });

/** A value of a fixed list, matched without regard to case (Mission Control writes `High`, `technical_debt`). */
function oneOf<T extends string>(values: readonly T[], aliases: Record<string, T> = {}) {
  const message = `must be one of ${values.join(', ')}`;
  return z.string({ message }).transform((value, ctx): T => {
    const lower = value.trim().toLowerCase();
    const found = values.find((item) => item.toLowerCase() === lower) ?? aliases[lower];
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return found;
  });
}

const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type Health = (typeof HEALTHS)[number];
/** filter.status: the healths (or Mission Control's component statuses) that open an incident. */
const STATUS_VALUES = [...HEALTHS, '*'] as const;
const statusValue = oneOf(STATUS_VALUES, { error: 'unhealthy', info: 'unknown' });
const SEVERITY_VALUES = [...new Set<string>([...INCIDENT_SEVERITIES, 'info', 'low', 'medium', 'high', 'critical', '*'])];
/**
 * Short forms of severities (Mission Control stores an incident's severity as the text written, so its
 * files say `med`): read as the severity, with a warning (severityWarnings). Case never matters.
 */
const SEVERITY_ALIASES: Readonly<Record<string, IncidentSeverity>> = { med: 'medium', crit: 'critical', warn: 'warning', inf: 'info' };
const severityValue = oneOf(SEVERITY_VALUES, SEVERITY_ALIASES);
const incidentType = oneOf(INCIDENT_TYPES, { technical_debt: 'technicalDebt', technicaldebt: 'technicalDebt' });
const categoryValue = oneOf([...INCIDENT_TYPES, '*'], { technical_debt: 'technicalDebt' });

const filterSchema = z
  .object({
    status: list.pipe(z.array(statusValue)).optional(),
    severity: list.pipe(z.array(severityValue)).optional(),
    category: list.pipe(z.array(categoryValue)).optional(),
    type: list.pipe(z.array(categoryValue)).optional(),
    age: duration.optional(),
  })
  .strict();

const autoCloseSchema = z.object({ timeout: duration.default(0) }).strict();

/** Mission Control's incident responders: read, reported, not run (no external ticketing here). */
export const RESPONDER_KINDS = ['email', 'jira', 'aws', 'ams', 'gcp', 'servicenow', 'slack', 'teams', 'teamsUser', 'github', 'msPlanner', 'ms_planner'] as const;
const respondersSchema = z.object(Object.fromEntries(RESPONDER_KINDS.map((key) => [key, z.unknown().optional()]))).strict();

const OPENING_STATUSES = ['new', 'open', 'investigating', 'mitigated'] as const;
const templateStatus = oneOf([...OPENING_STATUSES, 'resolved', 'closed', 'cancelled']);

const templateSchema = z
  .object({
    title: text.max(500).optional(),
    description: z.string().max(10_000).optional(),
    type: incidentType.optional(),
    severity: oneOf(INCIDENT_SEVERITIES, SEVERITY_ALIASES).optional(),
    status: templateStatus.optional(),
    commander_id: text.optional(),
    communicator_id: text.optional(),
    created_by: z.string().optional(),
  })
  .strict();

const hoursSchema = z.array(z.object({ start: z.string(), end: z.string(), negate: z.boolean().optional() }).strict());

/**
 * `kind: IncidentRule` spec: our own format (checks / components / configs, failures, health, template)
 * and Mission Control's IncidentRuleSpec (priority, filter, components selectors, autoAssignOwner,
 * breakOnMatch, autoClose, autoResolve, hoursOfOperation, responders, template). docs/RESOURCES.md.
 */
export const ruleSpecSchema = z
  .object({
    checks: z.array(selectorSchema).optional(),
    components: z.array(selectorSchema).optional(),
    configs: z.array(selectorSchema).optional(),
    /** Checks: how many of the latest results must all have failed. */
    failures: z.number({ message: 'must be a number from 1 to 100' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(1),
    /** Components and configs: the healths that open an incident (filter.status says the same). */
    health: z.array(z.enum(['unhealthy', 'warning', 'unknown'], { message: 'must be unhealthy, warning or unknown' })).min(1, 'must name at least one health').optional(),
    filter: filterSchema.optional(),
    priority: z.number({ message: 'must be a whole number' }).int('must be a whole number').default(0),
    breakOnMatch: z.boolean({ message: 'must be true or false' }).default(false),
    autoAssignOwner: z.boolean({ message: 'must be true or false' }).default(false),
    autoClose: autoCloseSchema.optional(),
    autoResolve: autoCloseSchema.optional(),
    hoursOfOperation: hoursSchema.optional(),
    responders: respondersSchema.optional(),
    name: z.string().optional(),
    template: templateSchema.default({}),
  })
  .strict();
type ParsedSpec = z.infer<typeof ruleSpecSchema>;

/** A rule as the engine runs it. */
export interface RuleSpec {
  selectors: Record<Kind, RuleSelector[]>;
  failures: number;
  /** The healths that open an incident; undefined means any. */
  healths: Health[] | undefined;
  /** Check severities a check must have; undefined means any. */
  severities: string[] | undefined;
  /** Incident types the rule may open; undefined means any. */
  categories: IncidentType[] | undefined;
  ageMillis: number;
  priority: number;
  breakOnMatch: boolean;
  autoAssignOwner: boolean;
  autoCloseMillis: number | undefined;
  autoResolveMillis: number | undefined;
  template: {
    title?: string;
    description?: string;
    type: IncidentType;
    severity: IncidentSeverity;
    status: (typeof OPENING_STATUSES)[number];
    commander?: string;
    communicator?: string;
  };
}

/** `*` anywhere in a filter list means the filter is off. */
function anyOf<T extends string>(values: T[] | undefined): Exclude<T, '*'>[] | undefined {
  if (!values || values.length === 0 || values.some((value) => value === '*')) return undefined;
  return values.filter((value): value is Exclude<T, '*'> => value !== '*');
}

function toRuleSpec(data: ParsedSpec): RuleSpec {
  const categories = anyOf([...(data.filter?.category ?? []), ...(data.filter?.type ?? [])]);
  const status = data.template.status;
  return {
    selectors: {
      check: (data.checks ?? []).map(toRuleSelector),
      component: (data.components ?? []).map(toRuleSelector),
      config: (data.configs ?? []).map(toRuleSelector),
    },
    failures: data.failures,
    healths: data.filter?.status ? anyOf(data.filter.status) : (data.health ?? ['unhealthy']),
    severities: anyOf(data.filter?.severity),
    categories,
    ageMillis: data.filter?.age ?? 0,
    priority: data.priority,
    breakOnMatch: data.breakOnMatch,
    autoAssignOwner: data.autoAssignOwner,
    autoCloseMillis: data.autoClose?.timeout,
    autoResolveMillis: data.autoResolve?.timeout,
    template: {
      ...(data.template.title ? { title: data.template.title } : {}),
      ...(data.template.description ? { description: data.template.description } : {}),
      type: data.template.type ?? 'availability',
      severity: data.template.severity ?? 'low',
      status: status === 'new' || status === 'investigating' || status === 'mitigated' ? status : 'open',
      ...(data.template.commander_id ? { commander: data.template.commander_id } : {}),
      ...(data.template.communicator_id ? { communicator: data.template.communicator_id } : {}),
    },
  };
}

/** What a rule says that is read but not run, each naming its field (never dropped in silence). */
function warningsOf(data: ParsedSpec, spec: RuleSpec): string[] {
  const warnings: string[] = [];
  for (const [key, kind] of [['checks', 'check'], ['components', 'component'], ['configs', 'config']] as const) {
    (data[key] ?? []).forEach((selector, index) => warnings.push(...selectorWarnings(selector, `spec.${key}[${index}]`, kind)));
  }
  if (data.name !== undefined) warnings.push('spec.name: a rule is named by metadata.name; ignored');
  if (data.hoursOfOperation && data.hoursOfOperation.length > 0) warnings.push('spec.hoursOfOperation: not supported; the rule opens incidents at any hour');
  for (const key of Object.keys(data.responders ?? {})) {
    warnings.push(`spec.responders.${key}: external responders are not supported; add people or teams as responders on the incident`);
  }
  if (data.template.created_by) warnings.push('spec.template.created_by: incidents a rule opens are created by the system; ignored');
  const status = data.template.status;
  if (status === 'resolved' || status === 'closed' || status === 'cancelled') {
    warnings.push(`spec.template.status: a rule does not open ${status} incidents; they open as open`);
  }
  if (spec.severities && (spec.selectors.component.length > 0 || spec.selectors.config.length > 0)) {
    warnings.push('spec.filter.severity: only checks have a severity here; the rule opens no incident for components or configs while it is set');
  }
  if (spec.categories && !spec.categories.includes(spec.template.type)) {
    warnings.push(`spec.filter.category: the rule opens ${spec.template.type} incidents, which the filter leaves out; it opens none`);
  }
  if (data.health && data.filter?.status) warnings.push('spec.health: filter.status says which healths open an incident; health is ignored');
  return warnings;
}

/** A rule must watch something; checked on the raw spec, so it is reported with the other problems. */
function watchesSomething(spec: unknown): boolean {
  if (!spec || typeof spec !== 'object') return false;
  return ['checks', 'components', 'configs'].some((key) => {
    const value: unknown = Reflect.get(spec, key);
    return Array.isArray(value) && value.length > 0;
  });
}

/** A severity written in a short form (`med`), named with what it is read as. */
function severityWarnings(spec: unknown): string[] {
  const warnings: string[] = [];
  const alias = (value: unknown, path: string) => {
    const found = typeof value === 'string' ? SEVERITY_ALIASES[value.trim().toLowerCase()] : undefined;
    if (found) warnings.push(`${path}: ${JSON.stringify(value)} is read as ${found}`);
  };
  const raw = (value: unknown, key: string): unknown => (value && typeof value === 'object' ? Reflect.get(value, key) : undefined);
  alias(raw(raw(spec, 'template'), 'severity'), 'spec.template.severity');
  const filter = raw(raw(spec, 'filter'), 'severity');
  const list = typeof filter === 'string' ? filter.split(',') : Array.isArray(filter) ? filter : [];
  list.forEach((value, index) => alias(value, typeof filter === 'string' ? 'spec.filter.severity' : `spec.filter.severity[${index}]`));
  return warnings;
}

export function parseRuleSpec(spec: unknown): { spec?: RuleSpec; errors: Issue[]; warnings: string[] } {
  const parsed = ruleSpecSchema.safeParse(spec);
  const errors = parsed.success ? [] : specProblems(parsed.error.issues);
  if (!watchesSomething(spec)) errors.push({ path: 'spec.checks', message: 'a rule watches checks, components or configs: give at least one selector' });
  if (!parsed.success || errors.length > 0) return { errors, warnings: [] };
  const rule = toRuleSpec(parsed.data);
  return { spec: rule, errors, warnings: [...severityWarnings(spec), ...warningsOf(parsed.data, rule)] };
}
