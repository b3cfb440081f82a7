/**
 * canary-checker's HTTP answers, field by field: the JSON names and types its Go types give (read from
 * flanksource/canary-checker's pkg/api and flanksource/duty's models, types and query packages, written
 * down here by us as facts). Our answers to the same calls must carry every field with that type
 * (checkContract); fields we add beside them are not looked at.
 *
 * `omitempty`: canary-checker leaves the field out when it is empty (Go's `omitempty`, or a nil pointer).
 * `nullable`: canary-checker may send null (a nil slice or map without `omitempty`).
 */

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'any';

export interface Field {
  type: JsonType;
  omitempty?: boolean;
  nullable?: boolean;
  /** A string that is a UUID or an RFC 3339 date-time. */
  format?: 'uuid' | 'date-time';
  /** The fields of an object. */
  fields?: Contract;
  /** The type of each element of an array. */
  items?: Field;
  /** The type of each value of an object used as a map (Go's map[string]…). */
  values?: Field;
}

export type Contract = Record<string, Field>;

const str: Field = { type: 'string' };
const optStr: Field = { type: 'string', omitempty: true };
const uuid: Field = { type: 'string', format: 'uuid' };
const time: Field = { type: 'string', format: 'date-time' };
const optTime: Field = { type: 'string', format: 'date-time', omitempty: true };
const int: Field = { type: 'integer' };
const optInt: Field = { type: 'integer', omitempty: true };
const stringMap: Field = { type: 'object', nullable: true, values: str };

/** duty types.Latency: p99/p97/p95 `omitempty` float64, rolling1h float64. */
export const LATENCY: Contract = {
  p99: { type: 'number', omitempty: true },
  p97: { type: 'number', omitempty: true },
  p95: { type: 'number', omitempty: true },
  rolling1h: { type: 'number' },
};

/** duty types.Uptime: passed and failed ints; p100 *float64, last_pass and last_fail *time.Time, all `omitempty`. */
export const UPTIME: Contract = {
  passed: int,
  failed: int,
  p100: { type: 'number', omitempty: true },
  last_pass: optTime,
  last_fail: optTime,
};

/** duty models.CheckSummary (a row of `checks_summary`). */
export const CHECK_SUMMARY: Contract = {
  id: uuid,
  canary_id: uuid,
  canary_name: str,
  canary_namespace: str,
  agent_id: uuid,
  description: optStr,
  icon: optStr,
  labels: stringMap,
  last_transition_time: optTime,
  // A struct: Go's omitempty never leaves a struct out.
  latency: { type: 'object', fields: LATENCY },
  name: str,
  namespace: str,
  owner: optStr,
  severity: optStr,
  status: str,
  type: str,
  uptime: { type: 'object', fields: UPTIME },
  last_runtime: optTime,
  created_at: time,
  updated_at: time,
  deleted_at: optTime,
  silenced_at: optTime,
};

/** GET/POST /api/summary: duty canary.SummaryResponse. */
export const SUMMARY: Contract = {
  duration: optInt,
  runnerName: str,
  checks_summary: { type: 'array', omitempty: true, items: { type: 'object', fields: CHECK_SUMMARY } },
};

/** duty query.Timeseries: one point of the graph's `status` series. */
export const TIMESERIES: Contract = {
  key: optStr,
  time: { type: 'string', format: 'date-time', omitempty: true },
  status: { type: 'boolean', omitempty: true },
  message: optStr,
  error: optStr,
  duration: int,
  count: optInt,
  passed: optInt,
  failed: optInt,
};

/** GET /api/graph: canary-checker api.DetailResponse. */
export const GRAPH: Contract = {
  duration: optInt,
  runnerName: str,
  status: { type: 'array', nullable: true, items: { type: 'object', fields: TIMESERIES } },
  latency: { type: 'object', fields: LATENCY },
  uptime: { type: 'object', fields: UPTIME },
};

/** canary-checker pkg.CheckStatus (before 2024: the results listed by /api). Its time was the database's text. */
export const CHECK_STATUS: Contract = {
  status: { type: 'boolean' },
  invalid: { type: 'boolean', omitempty: true },
  time: str,
  duration: int,
  message: optStr,
  error: optStr,
  check: { type: 'object', omitempty: true },
};

/** canary-checker pkg.Check as /api listed it (camelCase times). */
export const LEGACY_CHECK: Contract = {
  id: uuid,
  canary_id: uuid,
  type: str,
  name: str,
  canary_name: str,
  namespace: str,
  labels: stringMap,
  description: optStr,
  status: optStr,
  uptime: { type: 'object', fields: UPTIME },
  latency: { type: 'object', fields: LATENCY },
  checkStatuses: { type: 'array', nullable: true, items: { type: 'object', fields: CHECK_STATUS } },
  owner: optStr,
  severity: optStr,
  icon: optStr,
  displayType: optStr,
  transformed: { type: 'boolean', omitempty: true },
  lastRuntime: optTime,
  lastTransitionTime: optTime,
  nextRuntime: optTime,
  updatedAt: optTime,
  createdAt: optTime,
  deletedAt: optTime,
  silencedAt: optTime,
  earliestRuntime: optTime,
  latestRuntime: optTime,
  totalRuns: optInt,
};

/** GET /api: canary-checker api.Response (the endpoint canary-checker served until its v1.0 line). */
export const LEGACY_API: Contract = {
  duration: optInt,
  runnerName: str,
  checks: { type: 'array', omitempty: true, items: { type: 'object', fields: LEGACY_CHECK } },
  checks_summary: { type: 'array', omitempty: true, items: { type: 'object', fields: CHECK_SUMMARY } },
};

/** GET /about: canary-checker api.About. */
export const ABOUT: Contract = {
  Timestamp: time,
  Version: str,
};

/** POST /run/check/{id}: canary-checker pkg.CheckResult of the check run. */
export const RUN_RESULT: Contract = {
  name: optStr,
  // time.Time is a struct: always sent.
  start: time,
  pass: { type: 'boolean', omitempty: true },
  invalid: { type: 'boolean', omitempty: true },
  detail: { type: 'any', omitempty: true },
  data: { type: 'object', omitempty: true },
  labels: { type: 'object', omitempty: true },
  duration: optInt,
  description: optStr,
  display_type: optStr,
  message: optStr,
  namespace: optStr,
  error: optStr,
  metrics: { type: 'array', omitempty: true },
  transformed: { type: 'boolean', omitempty: true },
  artifacts: { type: 'array', omitempty: true },
  CanaryResult: { type: 'array', nullable: true },
};

/** duty types.Summary: a component's rolled-up counts. */
export const COMPONENT_SUMMARY: Contract = {
  healthy: optInt,
  unhealthy: optInt,
  warning: optInt,
  info: optInt,
  // map[string]map[string]int: incident type → severity → count; analysis type → severity → count.
  incidents: { type: 'object', omitempty: true, values: { type: 'object', values: int } },
  insights: { type: 'object', omitempty: true, values: { type: 'object', values: int } },
  // map[string]int: check status → count.
  checks: { type: 'object', omitempty: true, values: int },
};

/**
 * duty models.Component as the topology answer sends it. `checks`, `incidents` and `analysis` are cleared
 * by duty's query before it answers (their counts move into `summary`), so they are not part of the answer.
 */
export const COMPONENT: Contract = {
  id: uuid,
  topology_id: { type: 'string', format: 'uuid', omitempty: true },
  agent_id: uuid,
  external_id: optStr,
  parent_id: { type: 'string', format: 'uuid', omitempty: true },
  name: str,
  text: optStr,
  topology_type: optStr,
  namespace: str,
  labels: { type: 'object', omitempty: true, values: str },
  hidden: { type: 'boolean', omitempty: true },
  silenced: { type: 'boolean', omitempty: true },
  status: str,
  health: optStr,
  description: str,
  lifecycle: optStr,
  logs: { type: 'array', omitempty: true },
  tooltip: optStr,
  status_reason: optStr,
  schedule: optStr,
  icon: optStr,
  type: str,
  owner: optStr,
  selectors: { type: 'array', omitempty: true },
  configs: { type: 'array', omitempty: true },
  componentChecks: { type: 'array', omitempty: true },
  properties: { type: 'array', omitempty: true },
  path: optStr,
  summary: { type: 'object', fields: COMPONENT_SUMMARY },
  is_leaf: { type: 'boolean' },
  cost_per_minute: { type: 'number', omitempty: true },
  cost_total_1d: { type: 'number', omitempty: true },
  cost_total_7d: { type: 'number', omitempty: true },
  cost_total_30d: { type: 'number', omitempty: true },
  created_by: { type: 'string', format: 'uuid', omitempty: true },
  created_at: time,
  updated_at: optTime,
  deleted_at: optTime,
  config_id: { type: 'string', format: 'uuid', omitempty: true },
  status_expr: optStr,
  health_expr: optStr,
  components: { type: 'array', omitempty: true },
  order: optInt,
  relationship_id: { type: 'string', format: 'uuid', omitempty: true },
  children: { type: 'array', omitempty: true },
  parents: { type: 'array', omitempty: true },
};

// A component's children are components.
COMPONENT.components = { type: 'array', omitempty: true, items: { type: 'object', fields: COMPONENT } };

/** GET /api/topology: duty query.TopologyResponse. */
export const TOPOLOGY: Contract = {
  components: { type: 'array', nullable: true, items: { type: 'object', fields: COMPONENT } },
  healthStatuses: { type: 'array', nullable: true, items: str },
  teams: { type: 'array', nullable: true, items: str },
  // map[string][]string: label key → its values.
  tags: { type: 'object', nullable: true, values: { type: 'array', items: str } },
  types: { type: 'array', nullable: true, items: str },
};

export interface CheckOptions {
  /**
   * Where an `omitempty` field may be null instead of left out (the summary's checks: the console reads
   * null as "none"): everywhere (true) or under these paths; by default null is a problem wherever
   * canary-checker never sends it.
   */
  nullForEmpty?: boolean | readonly string[];
}

function nullAllowed(options: CheckOptions, path: string): boolean {
  const where = options.nullForEmpty;
  if (where === undefined || where === false) return false;
  if (where === true) return true;
  return where.some((prefix) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function typeProblem(value: unknown, field: Field): string | undefined {
  switch (field.type) {
    case 'any':
      return undefined;
    case 'array':
      return Array.isArray(value) ? undefined : 'an array';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'an object';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'a boolean';
    case 'string':
      if (typeof value !== 'string') return 'a string';
      if (field.format === 'uuid' && !UUID.test(value)) return 'a UUID';
      if (field.format === 'date-time' && (!RFC3339.test(value) || Number.isNaN(Date.parse(value)))) return 'an RFC 3339 date-time';
      return undefined;
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function checkField(value: unknown, field: Field, path: string, options: CheckOptions, problems: string[]): void {
  if (value === null) {
    if (!field.nullable && !(field.omitempty && nullAllowed(options, path))) problems.push(`${path}: is null; canary-checker sends ${typeProblem(undefined, field) ?? field.type}`);
    return;
  }
  const wanted = typeProblem(value, field);
  if (wanted) {
    problems.push(`${path}: is ${describe(value)}; canary-checker sends ${wanted}`);
    return;
  }
  if (field.fields) problems.push(...contractProblems(value, field.fields, path, options));
  if (field.items && Array.isArray(value)) value.forEach((item, index) => checkField(item, field.items as Field, `${path}[${index}]`, options, problems));
  if (field.values && typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) checkField(item, field.values, `${path}.${key}`, options, problems);
}

/** Every way `value` differs from the contract, each naming the field's path; none when it fits. */
export function contractProblems(value: unknown, contract: Contract, path = '', options: CheckOptions = {}): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path || 'the answer'}: is ${describe(value)}; canary-checker sends an object`];
  for (const [name, field] of Object.entries(contract)) {
    const at = path ? `${path}.${name}` : name;
    if (!Object.hasOwn(value, name) || Reflect.get(value, name) === undefined) {
      if (!field.omitempty) problems.push(`${at}: is missing`);
      continue;
    }
    checkField(Reflect.get(value, name), field, at, options, problems);
  }
  return problems;
}

/** The `omitempty` fields of the contract that `value` leaves out or sends as null (its own level only). */
export function emptyFields(value: object, contract: Contract): string[] {
  return Object.entries(contract)
    .filter(([name, field]) => field.omitempty && (Reflect.get(value, name) ?? null) === null)
    .map(([name]) => name);
}
