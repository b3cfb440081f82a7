import { z } from 'zod';
import { zodIssues } from '../../platform/http/validation';
import { isRecord } from '../../platform/errors';
import { valueFromReference } from '../../platform/secrets/resolve';
import { celProblems, checkTemplateSpec, expressionProblem } from '../../platform/expressions';
import { parseSchedule, ScheduleError } from '../../platform/jobs/schedule';
import { LABEL_NAME, METRIC_NAME, METRIC_TYPES } from './check-metrics';
import { schemaFields } from './define';
import { checkTypeOf, CHECK_TYPES } from './registry';
import { JUNIT_RESULT_MODE } from './result-mode';

/** A test, display or transform of canary-checker: `expr` (CEL), `template` (Go) or `javascript`. */
export const templateSchema = z
  .object({ expr: z.string().optional(), template: z.string().optional(), jsonPath: z.string().optional(), javascript: z.string().optional() })
  .loose();

/** A custom metric of a check (canary-checker's metrics exporter), exported on /metrics. */
const metricSchema = z.object({
  name: z.string({ message: 'is required' }).regex(METRIC_NAME, 'must be a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)'),
  type: z.enum(METRIC_TYPES, { message: `must be one of ${METRIC_TYPES.join(', ')}` }).optional(),
  value: z.union([z.string(), z.number()], { message: 'must be a CEL expression answering a number' }).transform(String).optional(),
  labels: z
    .array(
      z.object({
        name: z.string({ message: 'is required' }).regex(LABEL_NAME, 'must be a Prometheus label name'),
        value: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
        valueExpr: z.string().optional(),
      }),
    )
    .optional(),
});

/** Fields every check has, whatever its type (canary-checker's Description and Templatable). */
const commonSchema = z.object({
  name: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  description: z.string().optional(),
  // Older canaries wrote a selector here ({name: …}); its name is the namespace, as canary-checker reads it.
  namespace: z.union([z.string(), z.object({ name: z.string().optional() }).loose().transform((selector) => selector.name)]).optional(),
  icon: z.string().optional(),
  labels: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  test: templateSchema.optional(),
  display: templateSchema.optional(),
  transform: templateSchema.optional(),
  transformDeleteStrategy: z.enum(['MarkHealthy', 'MarkUnhealthy', 'Ignore']).optional(),
  metrics: z.array(metricSchema).optional(),
  dependsOn: z.array(z.string().min(1, 'must name a check of this canary')).optional(),
});
const COMMON_FIELDS = schemaFields(commonSchema);

/** Canary-level fields besides the check lists. */
const CANARY_FIELDS = ['schedule', 'interval', 'icon', 'severity', 'owner', 'env', 'replicas', 'resultMode', 'agentSelector'];

/** Check types canary-checker has that this version does not run: reported by name, never silently dropped. */
const KNOWN_UNSUPPORTED = new Set([
  'docker', 'dockerPush', 'containerd', 'containerdPush', 's3', 'pod', 'mssql', 'restic', 'jmeter', 'helm', 'namespace', 'cloudwatch',
  'pubsub', 'github', 'gitProtocol', 'kubernetes', 'kubernetesResource', 'awsConfig', 'awsConfigRule', 'databaseBackup', 'catalog',
  'opensearch', 'elasticsearch', 'alertmanager', 'argo', 'dynatrace', 'azureDevops', 'mongodb', 'smb', 'ec2', 'gcsDatabaseBackup',
]);

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

export interface Expression {
  expr?: string;
  template?: string;
  javascript?: string;
}

/** One check of a canary, ready to store and run. */
export interface CheckDefinition {
  type: string;
  /** Identity inside the canary. */
  key: string;
  /** Where it is written in the spec (`spec.http[1]`), for problems that name it. */
  path: string;
  name: string;
  namespace: string;
  description: string | null;
  icon: string | null;
  endpoint: string;
  labels: Record<string, string>;
  test: Expression | undefined;
  display: Expression | undefined;
  transform: Expression | undefined;
  transformDeleteStrategy: 'MarkHealthy' | 'MarkUnhealthy' | 'Ignore' | undefined;
  /** Names of checks of the same canary that run first; their variables are `outputs.<name>`. */
  dependsOn: string[];
  /** The check as written (type fields and common fields), which the runner parses again. */
  spec: Record<string, unknown>;
}

export interface ParsedCanary {
  checks: CheckDefinition[];
  /** The effective schedule, or null when the canary runs only on demand. */
  schedule: string | null;
  severity: string;
  owner: string | null;
  icon: string | null;
  env: Record<string, string>;
  /** `spec.env` entries read from a secret, config map or Helm release (name → valueFrom), resolved at each run. */
  envFrom: Record<string, unknown>;
  /** `junit`: the checks' results are stored as one JUnit report (canary-checker's resultMode). */
  resultMode: typeof JUNIT_RESULT_MODE | null;
  /** Problems that stop the canary from being saved, each `path: message`. */
  errors: Array<{ path: string; message: string }>;
  /** What is read but not supported, each naming the field. */
  warnings: string[];
}

function expression(value: z.infer<typeof templateSchema> | undefined, path: string, warnings: string[]): Expression | undefined {
  if (!value) return undefined;
  // gomplate reads jsonPath but never runs it: canary-checker ignores it too.
  if (value.jsonPath) warnings.push(`${path}.jsonPath is not run (canary-checker ignores it as well); use ${path}.expr (CEL), e.g. json.field`);
  for (const key of Object.keys(value)) {
    if (!['expr', 'template', 'jsonPath', 'javascript'].includes(key)) warnings.push(`${path}.${key} is not a field of a ${path.split('.').pop()}; it is ignored`);
  }
  if (value.expr === undefined && value.template === undefined && value.javascript === undefined) return undefined;
  return {
    ...(value.expr !== undefined ? { expr: value.expr } : {}),
    ...(value.template !== undefined ? { template: value.template } : {}),
    ...(value.javascript !== undefined ? { javascript: value.javascript } : {}),
  };
}

function scheduleOf(spec: Record<string, unknown>, errors: ParsedCanary['errors']): string | null {
  const raw = spec.schedule;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const schedule = raw.trim();
    if (schedule === '@never') return null;
    try {
      parseSchedule(schedule);
      return schedule;
    } catch (error) {
      errors.push({ path: 'spec.schedule', message: error instanceof ScheduleError ? error.message : `"${schedule}" is not a schedule` });
      return null;
    }
  }
  if (raw !== undefined && typeof raw !== 'string') errors.push({ path: 'spec.schedule', message: 'must be a text such as "@every 1m" or a cron expression' });
  const interval = spec.interval;
  if (typeof interval === 'number' && Number.isInteger(interval) && interval > 0) return `@every ${interval}s`;
  if (interval !== undefined && !(typeof interval === 'number' && Number.isInteger(interval) && interval >= 0)) {
    errors.push({ path: 'spec.interval', message: 'must be a whole number of seconds' });
  }
  return null;
}

function envOf(spec: Record<string, unknown>, errors: ParsedCanary['errors'], envFrom: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = {};
  const raw = spec.env;
  if (raw === undefined) return env;
  if (!isRecord(raw)) {
    errors.push({ path: 'spec.env', message: 'must be a map of names to {value: …}' });
    return env;
  }
  for (const [name, source] of Object.entries(raw)) {
    if (isRecord(source) && typeof source.value === 'string') env[name] = source.value;
    else if (isRecord(source) && source.valueFrom !== undefined) {
      const ref = valueFromReference(source.valueFrom);
      if (typeof ref === 'string') errors.push({ path: `spec.env.${name}.valueFrom`, message: ref });
      else envFrom[name] = source.valueFrom;
    }
    else errors.push({ path: `spec.env.${name}`, message: 'must be {value: "…"}' });
  }
  return env;
}

/**
 * Reads a canary-checker spec: every check of every supported type, its common fields, the schedule
 * (spec.schedule, or the older spec.interval in seconds) and the canary's own fields. Invalid checks are
 * errors with their path; unsupported types and fields are warnings naming them.
 */
export function parseCanarySpec(raw: unknown, defaults: { namespace: string }): ParsedCanary {
  const errors: ParsedCanary['errors'] = [];
  const warnings: string[] = [];
  const spec = isRecord(raw) ? raw : {};
  if (!isRecord(raw)) errors.push({ path: 'spec', message: 'must be a mapping of check types (http, tcp, …) and schedule' });
  const schedule = scheduleOf(spec, errors);
  const envFrom: Record<string, unknown> = {};
  const env = envOf(spec, errors, envFrom);
  const severity = typeof spec.severity === 'string' && spec.severity ? spec.severity : 'info';
  const owner = typeof spec.owner === 'string' && spec.owner ? spec.owner : null;
  const icon = typeof spec.icon === 'string' && spec.icon ? spec.icon : null;
  let resultMode: ParsedCanary['resultMode'] = null;
  if (spec.resultMode === JUNIT_RESULT_MODE) resultMode = JUNIT_RESULT_MODE;
  else if (spec.resultMode !== undefined && spec.resultMode !== '') warnings.push(`spec.resultMode: ${JSON.stringify(spec.resultMode)} is not a result mode (only "junit"); each check reports its own result`);
  if (spec.agentSelector !== undefined) warnings.push('spec.agentSelector is not supported yet; the canary runs on this instance');
  if (spec.replicas === 0) warnings.push('spec.replicas: 0 (paused) is not supported; use a schedule of @never to pause a canary');

  const checks: CheckDefinition[] = [];
  const keys = new Set<string>();
  for (const [field, value] of Object.entries(spec)) {
    if (CANARY_FIELDS.includes(field)) continue;
    const type = checkTypeOf(field);
    if (!type) {
      const count = Array.isArray(value) ? value.length : 1;
      warnings.push(
        KNOWN_UNSUPPORTED.has(field)
          ? `spec.${field}: the check type "${field}" is not supported by this version; its ${count} check${count === 1 ? ' is' : 's are'} left out`
          : `spec.${field} is not a check type or canary field; it is ignored (check types: ${CHECK_TYPES.map((t) => t.type).join(', ')})`,
      );
      continue;
    }
    // canary-checker writes webhook as one object; every other type as a list.
    const list = Array.isArray(value) ? value : type.push && isRecord(value) ? [value] : undefined;
    if (!list) {
      errors.push({ path: `spec.${field}`, message: 'must be a list of checks' });
      continue;
    }
    list.forEach((item, index) => {
      const path = Array.isArray(value) ? `spec.${field}[${index}]` : `spec.${field}`;
      if (!isRecord(item)) {
        errors.push({ path, message: 'must be a check (a mapping with at least a name)' });
        return;
      }
      const common = commonSchema.safeParse(item);
      const own = type.parse(item);
      if (!common.success) {
        for (const issue of zodIssues(common.error, path)) errors.push(issue);
      }
      if (!own.ok) {
        for (const issue of own.issues) {
          const where = issue.path ? `${path}.${issue.path}` : path;
          if (issue.atRun) warnings.push(`${where}: ${issue.message} (the check fails when it runs)`);
          else errors.push({ path: where, message: issue.message });
        }
      }
      for (const key of Object.keys(item)) {
        if (!COMMON_FIELDS.includes(key) && !type.fields.includes(key)) warnings.push(`${path}.${key} is not supported for ${field} checks; it is ignored`);
      }
      for (const warning of type.warnings(item)) warnings.push(`${path}.${warning.path}: ${warning.message}`);
      if (!common.success || (!own.ok && own.issues.some((issue) => !issue.atRun))) return;
      const data = common.data;
      (data.metrics ?? []).forEach((metric, index) => {
        // canary-checker skips a metric without a value; here it is said.
        if (metric.value === undefined || metric.value.trim() === '') warnings.push(`${path}.metrics[${index}] (${metric.name}) has no value: it is not exported`);
      });
      // Every expression compiles at apply, so a mistake is named with its place before the canary runs.
      const expressions = { test: data.test, display: data.display, transform: data.transform };
      for (const [name, value] of Object.entries(expressions)) {
        if (value) for (const problem of checkTemplateSpec(`${path}.${name}`, value)) errors.push(expressionProblem(problem));
      }
      (data.metrics ?? []).forEach((metric, index) => {
        const at = `${path}.metrics[${index}]`;
        if (metric.value !== undefined && metric.value.trim() !== '') errors.push(...celProblems(`${at}.value`, metric.value));
        (metric.labels ?? []).forEach((label, labelIndex) => {
          if (label.valueExpr !== undefined) errors.push(...celProblems(`${at}.labels[${labelIndex}].valueExpr`, label.valueExpr));
        });
      });
      const key = `${field}/${data.name}`;
      if (keys.has(key)) {
        errors.push({ path: `${path}.name`, message: `another ${field} check is named "${data.name}"; names must be unique per type` });
        return;
      }
      keys.add(key);
      checks.push({
        type: field,
        key,
        path,
        name: data.name,
        namespace: data.namespace || defaults.namespace,
        description: data.description || null,
        icon: data.icon || icon,
        endpoint: type.endpoint(item),
        labels: data.labels ?? {},
        test: expression(data.test, `${path}.test`, warnings),
        display: expression(data.display, `${path}.display`, warnings),
        transform: expression(data.transform, `${path}.transform`, warnings),
        transformDeleteStrategy: data.transformDeleteStrategy,
        dependsOn: data.dependsOn ?? [],
        spec: item,
      });
    });
  }
  if (checks.length === 0 && errors.length === 0) warnings.push('the canary has no checks this version can run');
  errors.push(...dependencyProblems(checks));
  return { checks, schedule, severity, owner, icon, env, envFrom, resultMode, errors, warnings };
}

/** dependsOn names checks of the same canary (by name), without a cycle. */
function dependencyProblems(checks: CheckDefinition[]): ParsedCanary['errors'] {
  const problems: ParsedCanary['errors'] = [];
  const byName = new Map<string, CheckDefinition[]>();
  for (const check of checks) byName.set(check.name, [...(byName.get(check.name) ?? []), check]);
  const where = (check: CheckDefinition) => `${check.path}.dependsOn`;
  for (const check of checks) {
    for (const name of check.dependsOn) {
      const found = byName.get(name);
      if (!found) problems.push({ path: where(check), message: `"${name}" is not a check of this canary` });
      else if (found.length > 1) problems.push({ path: where(check), message: `"${name}" names ${found.length} checks of this canary (of types ${found.map((c) => c.type).join(', ')}); rename one` });
      else if (name === check.name) problems.push({ path: where(check), message: 'a check cannot depend on itself' });
    }
  }
  if (problems.length > 0) return problems;
  // A cycle: depth-first, each check visited once.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (check: CheckDefinition, trail: string[]): string[] | undefined => {
    if (state.get(check.name) === 'done') return undefined;
    if (state.get(check.name) === 'visiting') return [...trail.slice(trail.indexOf(check.name)), check.name];
    state.set(check.name, 'visiting');
    for (const name of check.dependsOn) {
      const next = byName.get(name)?.[0];
      const cycle = next ? visit(next, [...trail, check.name]) : undefined;
      if (cycle) return cycle;
    }
    state.set(check.name, 'done');
    return undefined;
  };
  for (const check of checks) {
    const cycle = visit(check, []);
    if (cycle) return [{ path: where(check), message: `the checks depend on each other in a circle: ${cycle.join(' → ')}` }];
  }
  return [];
}
