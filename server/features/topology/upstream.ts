import { isRecord } from '../../platform/errors';
import { withoutUnrun, type UnrunFields } from '../../platform/resources';

/**
 * canary-checker / duty fields of a Topology's parts that this console reads but does not run. They are
 * taken out before the schema sees them and each is reported by path (docs/RESOURCES.md: a warning,
 * never a refusal, never silence).
 */

/** duty's ResourceSelector fields a selector here does not evaluate. */
const RESOURCE_SELECTOR: UnrunFields = {
  agent: 'every agent is searched',
  scope: 'scopes are not supported',
  cache: 'not needed here',
  search: 'search queries are not supported in selectors',
  limit: 'every match is used',
  includeDeleted: 'deleted resources are never shown',
  fieldSelector: 'field selectors are not supported',
  tagSelector: 'tag selectors are not supported here; use tags or labels',
  health: 'selecting by health is not supported',
  statuses: 'selecting by status is not supported',
};

const COMPONENT_SELECTOR: UnrunFields = { ...RESOURCE_SELECTOR, id: 'select by name, type or labels', namespace: 'components have no namespace here' };
const CHECK_SELECTOR: UnrunFields = { ...RESOURCE_SELECTOR, id: 'select by name, canary or labels' };
const CONFIG_SELECTOR: UnrunFields = { ...RESOURCE_SELECTOR, class: 'select by type', external_id: 'select by id, name or type' };

const PROPERTY: UnrunFields = {
  order: 'properties are shown in the order written',
  status: 'a property has no status here; use color or warning/critical thresholds',
  lastTransition: 'not shown',
  links: 'property links are not shown',
  lookup: 'property lookups are not supported; use configLookup or expr',
  summary: 'property summaries are not supported',
};
const PROPERTY_TYPES = new Set(['text', 'number', 'url', 'badge']);

function each(raw: unknown, where: string, fix: (item: Record<string, unknown>, at: string) => Array<Record<string, unknown>>): unknown {
  if (!Array.isArray(raw)) return raw;
  return raw.flatMap((item, index) => (isRecord(item) ? fix(item, `${where}[${index}]`) : [item]));
}

/** `types: [a, b]` of a selector that takes one type: one selector per type (a list of selectors is an or). */
function perType(selector: Record<string, unknown>): Array<Record<string, unknown>> {
  const { types, ...rest } = selector;
  if (!Array.isArray(types) || types.length === 0 || rest.type !== undefined) return [selector];
  return types.map((type) => ({ ...rest, type }));
}

export function componentSelectors(raw: unknown, where: string, warnings: string[]): unknown {
  return each(raw, where, (item, at) => [withoutUnrun(item, at, COMPONENT_SELECTOR, warnings)]);
}

function checkSelector(item: Record<string, unknown>, at: string, warnings: string[]): Array<Record<string, unknown>> {
  return perType(withoutUnrun(item, at, CHECK_SELECTOR, warnings));
}

/** A component's checks: selectors as they are, or canary-checker's `{selector: …, inline: …}`. */
export function checkEntries(raw: unknown, where: string, warnings: string[]): unknown {
  return each(raw, where, (item, at) => {
    const { selector, inline, ...rest } = item;
    if (inline !== undefined) {
      warnings.push(`${at}.inline: inline canaries are not supported; define the canary on its own and select it`);
      if (!isRecord(selector)) return [];
    }
    if (!isRecord(selector)) return checkSelector(inline === undefined ? item : rest, at, warnings);
    return checkSelector(selector, `${at}.selector`, warnings).map((one) => ({ ...rest, selector: one }));
  });
}

/** duty's ConfigQuery: `id` is a list there (one selector per id here). */
export function configSelectors(raw: unknown, where: string, warnings: string[]): unknown {
  return each(raw, where, (item, at) => {
    const { id, ...rest } = withoutUnrun(item, at, CONFIG_SELECTOR, warnings);
    if (!Array.isArray(id)) return [id === undefined ? rest : { ...rest, id }];
    return id.map((one) => ({ ...rest, id: String(one) }));
  });
}

function configLookup(raw: unknown, where: string, warnings: string[]): unknown {
  if (!isRecord(raw)) return raw;
  const { id, display, ...rest } = raw;
  const out: Record<string, unknown> = { ...rest };
  // canary-checker's configLookup.id names the config directly.
  if (id !== undefined && rest.config === undefined) out.config = { id: String(id) };
  else if (id !== undefined) warnings.push(`${where}.id: config is given too; id is ignored`);
  if (isRecord(display)) {
    const kept = withoutUnrun(display, `${where}.display`, { template: 'only expr (CEL) displays are run', javascript: 'only expr (CEL) displays are run', jsonPath: 'only expr (CEL) displays are run' }, warnings);
    if (Object.keys(kept).length > 0) out.display = kept;
  } else if (display !== undefined) out.display = display;
  return out;
}

/** canary-checker properties: `name` may be left out for a label; fields not shown here are reported. */
export function properties(raw: unknown, where: string, warnings: string[]): unknown {
  return each(raw, where, (item, at) => {
    const out = withoutUnrun(item, at, PROPERTY, warnings);
    if (out.name === undefined && typeof out.label === 'string') out.name = out.label;
    if (typeof out.type === 'string' && !PROPERTY_TYPES.has(out.type)) {
      warnings.push(`${at}.type: "${out.type}" is not a property type here (text, number, url, badge); shown as text`);
      delete out.type;
    }
    if (out.configLookup !== undefined) out.configLookup = configLookup(out.configLookup, `${at}.configLookup`, warnings);
    return [out];
  });
}

/** canary-checker check types a component lookup may use that this console does not run. */
export const CANARY_CHECK_TYPES = new Set([
  'dns', 'tcp', 'icmp', 'ping', 'postgres', 'mysql', 'mssql', 'redis', 'mongodb', 'prometheus', 'kubernetes', 'kubernetesResource', 'folder', 'junit',
  'catalog', 'elasticsearch', 'opensearch', 'alertmanager', 'cloudwatch', 'dynatrace', 'azureDevops', 'github', 'gitProtocol', 'helm', 'jmeter', 'ldap',
  'namespace', 'pod', 'restic', 's3', 'smb', 'docker', 'dockerPush', 'containerd', 'containerdPush', 'awsConfig', 'awsConfigRule', 'databaseBackup',
  'ec2', 'pubsub', 'webhook', 'env', 'schedule', 'interval', 'owner', 'severity', 'icon',
]);
