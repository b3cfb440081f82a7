import { healthLine, k8sHealth as sharedHealth, matchLabel, type Obj, unstructured } from '../shared/k8s';
import { matchResourceQuery, QueryParseError } from '../shared/match-query';
import { celValues } from './jq';
import { parseJSON, parseYAML } from './json';
import { entriesOf, fail, isMap, toStr, typeName, type Registrar } from './support';

/** Kubernetes object text as CEL reads it: JSON when it looks like JSON, else YAML. */
const parseObject = (text: string): unknown => (text.trim().startsWith('{') ? parseJSON(text, 'k8s') : parseYAML(text, 'k8s'));

/** Health of a Kubernetes object (shared/k8s.ts) over CEL values. */
export const k8sHealth = (value: unknown) => sharedHealth(value, parseObject, celValues);

/** A CPU quantity (`100m`, `0.5`, `15000000n`) as millicores. */
export function cpuMillicores(text: string): bigint {
  const match = /^(\d+(?:\.\d+)?)(n|u|m|)$/.exec(text.trim());
  if (!match) return fail(`k8s.cpuAsMillicores: "${text}" is not a CPU quantity`);
  const value = Number(match[1]);
  const unit = match[2];
  const scale = unit === 'n' ? 1e-6 : unit === 'u' ? 1e-3 : unit === 'm' ? 1 : 1000;
  return BigInt(Math.floor(value * scale + 1e-9));
}

/** A memory quantity (`512Mi`, `1Gi`, `1G`, `1.5gi`) as bytes. */
export function memoryBytes(text: string): bigint {
  const match = /^(\d+(?:\.\d+)?)([kKmMgGtTpPeE]i?|)$/.exec(text.trim());
  if (!match) return fail(`k8s.memoryAsBytes: "${text}" is not a memory quantity`);
  const unit = (match[2] ?? '').toLowerCase();
  const powers: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18, ki: 2 ** 10, mi: 2 ** 20, gi: 2 ** 30, ti: 2 ** 40, pi: 2 ** 50, ei: 2 ** 60 };
  return BigInt(Math.floor(Number(match[1]) * (powers[unit] ?? 1)));
}

/** A CEL value as plain JS for the query matcher: maps as objects, ints as numbers. */
function plain(value: unknown, depth = 0): unknown {
  if (depth > 32) return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1));
  if (isMap(value)) return Object.fromEntries(entriesOf(value, 'matchQuery').map(([key, item]) => [toStr(key), plain(item, depth + 1)]));
  return value;
}

/** matchQuery(resource, query): Mission Control's search query over a resource (shared/match-query.ts). */
export function matchQuery(resource: unknown, query: string): boolean {
  const o = unstructured(resource, parseObject) ?? {};
  try {
    return matchResourceQuery(plain(o) as Obj, query);
  } catch (error) {
    if (error instanceof QueryParseError) return fail(`matchQuery: ${JSON.stringify(query)} does not parse: ${error.message}`);
    throw error;
  }
}

export function registerK8s(r: Registrar): void {
  const health = (value: unknown) => ({ ...k8sHealth(value) });
  for (const name of ['k8s.getHealth', 'GetHealth']) r.fn(name, 1, health, 'map');
  for (const name of ['k8s.getStatus', 'GetStatus']) {
    r.fn(name, 1, (value: unknown) => healthLine(k8sHealth(value)), 'string');
  }
  for (const name of ['k8s.isHealthy', 'IsHealthy', 'k8s.is_healthy']) r.fn(name, 1, (value: unknown) => k8sHealth(value).ok, 'bool');
  for (const name of ['k8s.isReady', 'IsReady']) r.fn(name, 1, (value: unknown) => k8sHealth(value).ready, 'bool');
  r.fn('k8s.cpuAsMillicores', 1, (text: unknown) => cpuMillicores(toStr(text)), 'int');
  r.fn('k8s.memoryAsBytes', 1, (text: unknown) => memoryBytes(toStr(text)), 'int');
  r.fn('matchLabel', 3, (labels: unknown, key: unknown, patterns: unknown) => {
    const map = new Map<string, string>(isMap(labels) ? entriesOf(labels, 'matchLabel').map(([k, v]) => [toStr(k), toStr(v)] as const) : []);
    return matchLabel(map, toStr(key), toStr(patterns).split(','));
  }, 'bool');
  r.fn('matchQuery', 2, (resource: unknown, query: unknown) => {
    if (typeof query !== 'string') return fail(`matchQuery: the query must be a string, got ${typeName(query)}`);
    return matchQuery(resource, query);
  }, 'bool');
}
