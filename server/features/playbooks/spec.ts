import { z } from 'zod';
import { celProblems, expressionProblem, ExpressionError } from '../../platform/expressions';
import { compileTemplate, PLAYBOOK_FUNCTIONS } from '../../platform/expressions/template';
import { parseDuration } from '../../platform/units';
import { parseSchedule } from '../../platform/jobs/schedule';
import { isRecord } from '../../platform/errors';
import { unknownFields } from '../../platform/schema-fields';
import { aiActionSchema, azureDevopsPipelineActionSchema, githubActionSchema, gitopsActionSchema, logsActionSchema, prometheusActionSchema, reportActionProblems, reportActionSchema } from './actions/schemas';
import { mcpMarkSchema } from '../../platform/mcp-marks';
import { ACTION_TYPES, RUN_TYPES, type ActionType } from './action-types';
import { templatedTexts, untemplatedTemplates } from './contextual/fields';
import { isOneOf } from '../../../common/guards';

/**
 * The `Playbook` spec (mission-control.flanksource.com/v1, docs/PLAYBOOKS.md): one schema names every field
 * we read; a field outside it is a warning naming its path, never a refusal. What we refuse, each problem
 * with its path: no actions, an action of no known type (or two), a bad CEL `if`/filter, a Go template that
 * does not parse, a bad duration, a parameter without a name.
 */

type Problem = { path: string; message: string };

const text = z.string().trim().min(1, 'must not be empty');

/** Go durations (`30s`, `5m`, `1h30m`) in milliseconds. */
export const durationField = z.string({ message: 'must be a duration such as 30s, 5m or 1h' }).transform((value, ctx) => {
  const millis = parseDuration(value);
  if (millis === undefined || millis < 0) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a duration such as 30s, 5m or 1h` });
    return z.NEVER;
  }
  return millis;
});

/** An EnvVar: a value, or a reference (secretKeyRef, configMapKeyRef, helmRef, serviceAccount) resolved at run time. */
const valueFrom = z.record(z.string(), z.unknown());
export const envVarSchema = z.object({ name: z.string().optional(), value: z.string().optional(), valueFrom: valueFrom.optional() });
export type EnvVarSpec = z.infer<typeof envVarSchema>;
const namedEnvVar = z.object({ name: text, value: z.string().optional(), valueFrom: valueFrom.optional() });
/** Where an EnvVar is written as a bare string. */
const envValue = z.union([z.string().transform((value): EnvVarSpec => ({ value })), envVarSchema]);

/** Which resources a playbook runs on: Mission Control's ResourceSelector (and the older type/tags filter). */
export const resourceSelectorSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  agent: z.string().optional(),
  type: z.string().optional(),
  types: z.array(z.string()).optional(),
  statuses: z.array(z.string()).optional(),
  health: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  labelSelector: z.string().optional(),
  tagSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
  search: z.string().optional(),
  scope: z.string().optional(),
  cache: z.string().optional(),
});
export type ResourceSelectorSpec = z.infer<typeof resourceSelectorSchema>;

export const PARAMETER_TYPES = [
  'text', 'checkbox', 'list', 'number', 'bytes', 'millicores', 'dns1123', 'people', 'team', 'config', 'component', 'check', 'code', 'secret',
] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export const parameterSchema = z.object({
  name: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  label: z.string().optional(),
  type: z.string().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
  required: z.boolean().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  dependsOn: z.array(z.string()).optional(),
  /** Per type: options (list), multiline/minLength/maxLength/regex (text), filter (config), language (code), … */
  properties: z.record(z.string(), z.unknown()).optional(),
});
export type ParameterSpec = z.infer<typeof parameterSchema>;

const retrySchema = z.object({
  limit: z.number().int().min(0).max(100),
  duration: durationField.optional(),
  exponent: z.object({ multiplier: z.number().positive() }).optional(),
  jitter: z.number().min(0).max(100).optional(),
});
export type RetrySpec = z.infer<typeof retrySchema>;

const gitCheckout = z.object({
  url: z.string().optional(),
  connection: z.string().optional(),
  username: envValue.optional(),
  password: envValue.optional(),
  certificate: envValue.optional(),
  destination: z.string().optional(),
  branch: z.string().optional(),
});

export const execActionSchema = z.object({
  script: z.string({ message: 'is required' }),
  connections: z.object({
    fromConfigItem: z.string().optional(),
    eksPodIdentity: z.boolean().optional(),
    serviceAccount: z.boolean().optional(),
    kubernetes: z.record(z.string(), z.unknown()).optional(),
    aws: z.record(z.string(), z.unknown()).optional(),
    gcp: z.record(z.string(), z.unknown()).optional(),
    azure: z.record(z.string(), z.unknown()).optional(),
  }).optional(),
  env: z.array(namedEnvVar).optional(),
  checkout: gitCheckout.optional(),
  artifacts: z.array(z.object({ path: text })).optional(),
});

export const httpActionSchema = z.object({
  connection: z.string().optional(),
  url: z.string().optional(),
  method: z.string().optional(),
  username: envValue.optional(),
  password: envValue.optional(),
  bearer: envValue.optional(),
  oauth: z.record(z.string(), z.unknown()).optional(),
  ntlm: z.boolean().optional(),
  ntlmv2: z.boolean().optional(),
  digest: z.boolean().optional(),
  headers: z.array(namedEnvVar).optional(),
  body: z.string().optional(),
  templateBody: z.boolean().optional(),
  tls: z.record(z.string(), z.unknown()).optional(),
});

export const sqlActionSchema = z.object({
  connection: z.string().optional(),
  url: z.string().optional(),
  query: z.string({ message: 'is required' }),
  driver: z.string().optional(),
  username: envValue.optional(),
  password: envValue.optional(),
});

export const notificationActionSchema = z.object({
  connection: z.string().optional(),
  url: z.string().optional(),
  title: z.string({ message: 'is required' }),
  message: z.string().optional(),
  properties: z.record(z.string(), z.string()).optional(),
});

/** The action types a playbook may name (their own module, which contextual/fields.ts reads too). */
export { ACTION_TYPES, RUN_TYPES, type ActionType } from './action-types';

const looseAction = z.record(z.string(), z.unknown());

export const actionSchema = z.object({
  name: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  delay: z.string().optional(),
  timeout: durationField.optional(),
  if: z.string().optional(),
  /** The older name of `if`. */
  filter: z.string().optional(),
  retry: retrySchema.optional(),
  runsOn: z.array(z.string()).optional(),
  templatesOn: z.string().optional(),
  exec: execActionSchema.optional(),
  http: httpActionSchema.optional(),
  sql: sqlActionSchema.optional(),
  notification: notificationActionSchema.optional(),
  logs: logsActionSchema.optional(),
  gitops: gitopsActionSchema.optional(),
  github: githubActionSchema.optional(),
  azureDevopsPipeline: azureDevopsPipelineActionSchema.optional(),
  prometheus: prometheusActionSchema.optional(),
  ai: aiActionSchema.optional(),
  pod: looseAction.optional(),
  report: reportActionSchema.optional(),
});
export type ActionSpec = z.infer<typeof actionSchema>;

const triggerEvent = z.object({
  event: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  filter: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
});
export type TriggerEventSpec = z.infer<typeof triggerEvent>;

const webhookTrigger = z.object({
  path: z.string({ message: 'is required' }).trim().min(1, 'is required').regex(/^[A-Za-z0-9._~/-]+$/, 'may hold letters, digits and . _ ~ / - only'),
  authentication: z.object({
    basic: z.object({ username: envValue, password: envValue }).optional(),
    github: z.object({ token: envValue }).optional(),
    svix: z.object({ secret: envValue, verifyTimestamp: z.string().optional() }).optional(),
    jwt: z.object({ jwksUri: z.string() }).optional(),
  }).optional(),
});
export type WebhookTriggerSpec = z.infer<typeof webhookTrigger>;

export const playbookSpecSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  icon: z.string().optional(),
  timeout: durationField.optional(),
  parameters: z.array(parameterSchema).optional(),
  configs: z.array(resourceSelectorSchema).optional(),
  checks: z.array(resourceSelectorSchema).optional(),
  components: z.array(resourceSelectorSchema).optional(),
  /** CEL expressions over the resource: all must be true for the playbook to run on it. */
  filters: z.array(z.string()).optional(),
  approval: z.object({
    type: z.enum(['any', 'all'], { message: 'must be any or all' }).optional(),
    approvers: z.object({ people: z.array(z.string()).optional(), teams: z.array(z.string()).optional() }).optional(),
  }).optional(),
  on: z.object({
    canary: z.array(triggerEvent).optional(),
    config: z.array(triggerEvent).optional(),
    component: z.array(triggerEvent).optional(),
    webhook: webhookTrigger.optional(),
    schedule: z.array(z.object({ schedule: z.string(), name: z.string().optional() })).optional(),
  }).optional(),
  env: z.array(namedEnvVar).optional(),
  permissions: z.array(z.record(z.string(), z.unknown())).optional(),
  runsOn: z.array(z.string()).optional(),
  templatesOn: z.string().optional(),
  actions: z.array(actionSchema, { message: 'is required: at least one action' }).min(1, 'is required: at least one action'),
  /** Offered to LLM clients as its own MCP tool (docs/MCP.md): `true`, or the tool's title, description and hints. */
  mcp: mcpMarkSchema.optional(),
});
export type PlaybookSpec = z.infer<typeof playbookSpecSchema>;

/**
 * An action's `if` as CEL: Mission Control's status functions become variables the runner sets —
 * `always()` is true, `success()` is true when no earlier action failed, `failure()` when one did,
 * `skip()` is false.
 */
export function conditionExpression(condition: string): string {
  return condition
    .replace(/\balways\(\s*\)/g, 'true')
    .replace(/\bskip\(\s*\)/g, 'false')
    .replace(/\bsuccess\(\s*\)/g, 'wk_success')
    .replace(/\bfailure\(\s*\)/g, 'wk_failure')
    .replace(/\btimeout\(\s*\)/g, 'wk_timeout')
    .replace(/\blast_result\(\s*\)/g, 'wk_last_result')
    .replace(/\bgetLastAction\(\s*\)/g, 'wk_last_action')
    .replace(/\bgetAction\(\s*("[^"]*"|'[^']*')\s*\)/g, 'wk_actions[$1]');
}

/**
 * A Go template of an action with Mission Control's playbook functions as values the runner sets:
 * `last_result` (the previous action's result) and `getLastAction` (the previous action: name, status,
 * result, error), inside `{{ }}` only.
 */
export function templateText(text: string): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{[\s\S]*?\}\}/g, (block) => block.replace(/\blast_result\b(\s*\(\s*\))?/g, '.wk_last_result').replace(/\bgetLastAction\b(\s*\(\s*\))?/g, '.wk_last_action'));
}

/** The one action type an action names (validated to be exactly one). */
export function actionTypeOf(action: ActionSpec): ActionType {
  const found = ACTION_TYPES.find((type) => action[type] !== undefined);
  if (!found) throw new Error(`action ${action.name} has no type`);
  return found;
}

function zodPath(segments: ReadonlyArray<PropertyKey>): string {
  return segments.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : `${out}.${String(segment)}`), 'spec');
}

function templateProblems(value: unknown, path: string): Problem[] {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return [];
    try {
      compileTemplate(path, templateText(value), PLAYBOOK_FUNCTIONS);
      return [];
    } catch (error) {
      if (error instanceof ExpressionError) return [expressionProblem(error)];
      return [{ path, message: `does not parse as a Go template: ${error instanceof Error ? error.message : String(error)}` }];
    }
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => templateProblems(item, `${path}[${index}]`));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => templateProblems(item, `${path}.${key}`));
  return [];
}

/**
 * The Go templates of an action that are rendered, each checked to parse: its `if`/`filter`/`delay` and
 * `runsOn`, and the fields of its type that Mission Control templates (contextual/fields.ts). A `{{` in any
 * other field is used as written, as Mission Control does: warned, so an author does not expect it rendered.
 */
function actionTemplateProblems(rawAction: Record<string, unknown>, type: ActionType | undefined, where: string, warnings: string[]): Problem[] {
  const problems = (['if', 'filter', 'delay', 'runsOn'] as const).flatMap((field) => templateProblems(rawAction[field], `${where}.${field}`));
  if (type === undefined) return problems;
  for (const text of templatedTexts(type, rawAction[type])) problems.push(...templateProblems(text.value, `${where}.${text.path}`));
  for (const path of untemplatedTemplates(type, rawAction[type])) {
    warnings.push(`${where}.${path} is not templated (as in Mission Control): its {{ … }} is used as written`);
  }
  return problems;
}

/** The events each trigger kind can name (short form; `check.failed` and `failed` alike). */
const TRIGGERABLE = {
  canary: ['passed', 'failed'],
  config: ['created', 'updated', 'deleted', 'changed', 'healthy', 'unhealthy', 'warning', 'unknown'],
  component: ['healthy', 'unhealthy', 'warning', 'unknown'],
} as const satisfies Record<string, readonly string[]>;

export interface CheckedPlaybook {
  spec: PlaybookSpec;
  warnings: string[];
}

/**
 * Checks a playbook spec whole: every problem by path (thrown as a list by the caller), every field we do not
 * read or run named in a warning.
 */
export function checkPlaybookSpec(raw: Record<string, unknown>): { problems: Problem[]; checked?: CheckedPlaybook } {
  // A save asks for the problems, the warnings and the columns of one spec object: it is checked once.
  let found = checkedSpecs.get(raw);
  if (!found) {
    found = checkSpec(raw);
    checkedSpecs.set(raw, found);
  }
  return found;
}

const checkedSpecs = new WeakMap<object, { problems: Problem[]; checked?: CheckedPlaybook }>();

function checkSpec(raw: Record<string, unknown>): { problems: Problem[]; checked?: CheckedPlaybook } {
  const problems: Problem[] = [];
  const warnings = unknownFields(playbookSpecSchema, raw, 'spec', { unions: true }).map((path) => `${path} is not read by this console and was ignored`);
  const parsed = playbookSpecSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ path: zodPath(issue.path), message: issue.message });
    return { problems };
  }
  const spec = parsed.data;
  const names = new Set<string>();
  spec.parameters?.forEach((parameter, index) => {
    const where = `spec.parameters[${index}]`;
    if (names.has(parameter.name)) problems.push({ path: `${where}.name`, message: `${JSON.stringify(parameter.name)} is named twice` });
    names.add(parameter.name);
    if (parameter.type && !isOneOf(PARAMETER_TYPES, parameter.type)) {
      warnings.push(`${where}.type: ${JSON.stringify(parameter.type)} is not a parameter type here (${PARAMETER_TYPES.join(', ')}); read as text`);
    }
    const regex = parameter.properties?.regex;
    if (typeof regex === 'string') {
      try {
        new RegExp(regex);
      } catch {
        problems.push({ path: `${where}.properties.regex`, message: `${JSON.stringify(regex)} is not a regular expression` });
      }
    }
    if (parameter.type === 'list' && !Array.isArray(parameter.properties?.options)) {
      problems.push({ path: `${where}.properties.options`, message: 'is required for a list parameter: [{label, value}, …]' });
    }
  });
  const actionNames = new Set<string>();
  spec.actions.forEach((action, index) => {
    const where = `spec.actions[${index}]`;
    if (actionNames.has(action.name)) problems.push({ path: `${where}.name`, message: `${JSON.stringify(action.name)} is named twice: action names are unique in a playbook` });
    actionNames.add(action.name);
    const types = ACTION_TYPES.filter((type) => action[type] !== undefined);
    const listed: unknown = Array.isArray(raw.actions) ? raw.actions[index] : undefined;
    const rawAction = isRecord(listed) ? listed : {};
    if (types.length === 0) {
      const unknown = Object.keys(rawAction).filter((key) => !(key in actionSchema.shape));
      problems.push({
        path: where,
        message: unknown.length > 0
          ? `${unknown.map((key) => JSON.stringify(key)).join(', ')} is not an action type (one of ${ACTION_TYPES.join(', ')})`
          : `names no action: give one of ${ACTION_TYPES.join(', ')}`,
      });
    } else if (types.length > 1) {
      problems.push({ path: where, message: `names ${types.join(' and ')}: an action has exactly one type` });
    } else if (types[0] !== undefined && !RUN_TYPES.has(types[0])) {
      const type = types[0];
      warnings.push(
        type === 'pod'
          ? `${where}.pod is not run: no Kubernetes cluster is configured, so this action fails when the run reaches it`
          : type === 'report'
            ? `${where}.report is not run by this console: Mission Control renders the report with its facet renderer (a TSX template to HTML or PDF), which this console does not have; this action fails when the run reaches it`
            : `${where}.${type} is not run by this console yet: this action fails when the run reaches it`,
      );
    }
    const condition = action.if ?? action.filter;
    if (action.filter !== undefined && action.if === undefined) warnings.push(`${where}.filter is the older name of if: read as if`);
    if (condition && !condition.includes('{{')) problems.push(...celProblems(`${where}.${action.if !== undefined ? 'if' : 'filter'}`, conditionExpression(condition)));
    // A delay is a duration, a template, or (as in Mission Control) a CEL expression giving one.
    if (action.delay !== undefined && !action.delay.includes('{{') && parseDuration(action.delay) === undefined) {
      const cel = celProblems(`${where}.delay`, conditionExpression(action.delay));
      if (cel.length > 0) problems.push({ path: `${where}.delay`, message: `${JSON.stringify(action.delay)} is neither a duration such as 30s, 5m or 1h nor a CEL expression giving one` });
    }
    if (action.http && !action.http.url && !action.http.connection) problems.push({ path: `${where}.http`, message: 'needs a url or a connection' });
    if (action.sql && !action.sql.url && !action.sql.connection) problems.push({ path: `${where}.sql`, message: 'needs a url or a connection' });
    if (action.notification && !action.notification.url && !action.notification.connection) problems.push({ path: `${where}.notification`, message: 'needs a url or a connection' });
    if (action.report) for (const message of reportActionProblems(action.report)) problems.push({ path: `${where}.report`, message });
    if (action.prometheus && !action.prometheus.url && !action.prometheus.connection) problems.push({ path: `${where}.prometheus`, message: 'needs a url or a connection' });
    if (action.gitops?.pr && action.gitops.repo.branch !== undefined && action.gitops.repo.branch === action.gitops.repo.base) {
      problems.push({ path: `${where}.gitops.repo.branch`, message: 'must differ from repo.base to open a pull request' });
    }
    if (action.exec?.connections) {
      for (const key of Object.keys(action.exec.connections)) warnings.push(`${where}.exec.connections.${key} is not run: the script runs without these credentials`);
    }
    problems.push(...actionTemplateProblems(rawAction, types.length === 1 ? types[0] : undefined, where, warnings));
  });
  spec.filters?.forEach((filter, index) => problems.push(...celProblems(`spec.filters[${index}]`, filter)));
  for (const kind of ['canary', 'config', 'component'] as const) {
    spec.on?.[kind]?.forEach((trigger, index) => {
      if (trigger.filter) problems.push(...celProblems(`spec.on.${kind}[${index}].filter`, trigger.filter));
      const short = trigger.event.replace(/^(canary|check|config|component)\./, '');
      if (!isOneOf(TRIGGERABLE[kind], short)) {
        warnings.push(`spec.on.${kind}[${index}].event: ${JSON.stringify(trigger.event)} never happens here (one of ${TRIGGERABLE[kind].join(', ')}), so this trigger never fires`);
      }
    });
  }
  problems.push(...webhookAuthentication(spec, warnings));
  if (spec.on?.webhook?.authentication?.jwt) warnings.push('spec.on.webhook.authentication.jwt is not run: JWT webhook authentication is refused (401) until it is supported');
  if (spec.permissions?.length) warnings.push('spec.permissions is not run: the playbook acts with the console\'s own access');
  spec.on?.schedule?.forEach((entry, index) => {
    try {
      parseSchedule(entry.schedule);
    } catch (error) {
      problems.push({ path: `spec.on.schedule[${index}].schedule`, message: error instanceof Error ? error.message : String(error) });
    }
  });
  if (problems.length > 0) return { problems };
  return { problems, checked: { spec, warnings } };
}

/**
 * A webhook trigger without authentication lets anyone who reaches the console start the playbook. With an
 * exec action that is anyone running code on the server: refused, naming the path. Without one it is
 * allowed (as Mission Control), with a warning.
 */
function webhookAuthentication(spec: PlaybookSpec, warnings: string[]): Problem[] {
  const webhook = spec.on?.webhook;
  if (!webhook) return [];
  const auth = webhook.authentication;
  if (auth?.basic || auth?.github || auth?.svix || auth?.jwt) return [];
  const execAt = spec.actions.findIndex((action) => action.exec !== undefined);
  if (execAt >= 0) {
    return [{
      path: 'spec.on.webhook.authentication',
      message: `is required when the playbook runs exec actions (spec.actions[${execAt}].exec): anyone who can reach the console could run it; give basic, github or svix`,
    }];
  }
  warnings.push('spec.on.webhook.authentication: is not set, so anyone who can reach the console can start this playbook through its webhook; give basic, github or svix');
  return [];
}

let jsonSchema: Record<string, unknown> | undefined;

/** JSON schema of a Playbook spec (as written: durations as text), for the editor's Code tab. */
export function playbookSpecJsonSchema(): Record<string, unknown> {
  jsonSchema ??= z.toJSONSchema(playbookSpecSchema, { unrepresentable: 'any', io: 'input' });
  return jsonSchema;
}
