import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Queryable } from '../../platform/jobs/db';
import { CHART_REGISTRY_PROPERTY, egressFetch } from '../../platform/egress';
import { messageOf } from '../../platform/errors';
import { ROOT } from '../../platform/paths';

/** Where the shipped charts live: `<chart>/Chart.yaml` and `<chart>/values.schema.json` each. */
export const CHARTS_DIR = path.join(ROOT, 'server', 'features', 'integrations', 'charts');

/**
 * The property naming a live chart registry (docs/INTEGRATIONS.md); unset: the shipped charts answer.
 * Only an admin sets it (server/postgrest/relations/platform.ts), and its fetches follow the egress policy.
 */
export { CHART_REGISTRY_PROPERTY };

/** Spec §7: a live registry gets this long for each file before the shipped chart answers instead. */
export const REGISTRY_TIMEOUT_MS = 5_000;

/** A file larger than this from the registry is refused (a schema is a few kilobytes). */
const MAX_FILE_BYTES = 1_000_000;

/** The Helm repository the Flux and Helm CLI previews install from. */
export const HELM_REPOSITORY = { name: 'flanksource', url: 'https://flanksource.github.io/charts' } as const;

export const CHART_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface ChartMeta {
  name: string;
  version: string;
  description?: string;
  appVersion?: string;
}

export interface ChartAnswer {
  name: string;
  chart: ChartMeta;
  schema: Record<string, unknown>;
  repository: { name: string; url: string };
  /** 'shipped': the files in this project; 'registry': fetched live from `registry`. */
  source: 'shipped' | 'registry';
  registry?: string;
  /** Why the shipped chart answers although a registry is set. */
  note?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Chart.yaml text as its metadata; throws a message naming what is wrong. */
export function parseChartYaml(text: string): ChartMeta {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new Error(`Chart.yaml is not YAML: ${messageOf(error)}`);
  }
  if (!isRecord(doc)) throw new Error('Chart.yaml is not a mapping');
  const { name, version, description, appVersion } = doc;
  if (typeof name !== 'string' || name === '') throw new Error('Chart.yaml has no name');
  if (typeof version !== 'string' && typeof version !== 'number') throw new Error('Chart.yaml has no version');
  return {
    name,
    version: String(version),
    ...(typeof description === 'string' ? { description } : {}),
    ...(typeof appVersion === 'string' || typeof appVersion === 'number' ? { appVersion: String(appVersion) } : {}),
  };
}

/** values.schema.json text as a schema object; throws a message naming what is wrong. */
export function parseSchema(text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`values.schema.json is not JSON: ${messageOf(error)}`);
  }
  if (!isRecord(doc)) throw new Error('values.schema.json is not a JSON object');
  if (doc.type !== undefined && doc.type !== 'object') throw new Error('values.schema.json does not describe an object');
  return doc;
}

/** The names of the shipped charts, sorted. */
export async function shippedChartNames(): Promise<string[]> {
  const entries = await fs.readdir(CHARTS_DIR, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() && CHART_NAME.test(entry.name)).map((entry) => entry.name).sort();
}

/** A shipped chart, or undefined when the project ships none of that name. */
export async function shippedChart(name: string): Promise<ChartAnswer | undefined> {
  if (!CHART_NAME.test(name)) return undefined;
  const dir = path.join(CHARTS_DIR, name);
  if (!existsSync(path.join(dir, 'Chart.yaml'))) return undefined;
  const [chartText, schemaText] = await Promise.all([fs.readFile(path.join(dir, 'Chart.yaml'), 'utf8'), fs.readFile(path.join(dir, 'values.schema.json'), 'utf8')]);
  return { name, chart: parseChartYaml(chartText), schema: parseSchema(schemaText), repository: { ...HELM_REPOSITORY }, source: 'shipped' };
}

/** The registry URL of the property, or undefined when unset (blank counts as unset). */
export async function chartRegistry(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM properties WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization()', [CHART_REGISTRY_PROPERTY]);
  const value = rows[0]?.value.trim();
  return value ? value.replace(/\/+$/, '') : undefined;
}

async function fetchText(url: string, signal: AbortSignal): Promise<string> {
  // The egress policy (server/platform/egress.ts): refused destinations, and redirects to the same host only.
  const response = await egressFetch(url, { signal, headers: { accept: 'application/json, application/yaml, text/plain, */*' } });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_FILE_BYTES) {
    await response.body?.cancel();
    throw new Error(`${url} is larger than ${MAX_FILE_BYTES} bytes`);
  }
  const text = await response.text();
  if (text.length > MAX_FILE_BYTES) throw new Error(`${url} is larger than ${MAX_FILE_BYTES} bytes`);
  return text;
}

/** Fetches `<registry>/<name>/Chart.yaml` and `values.schema.json`, both within `timeoutMs`. */
export async function registryChart(registry: string, name: string, timeoutMs = REGISTRY_TIMEOUT_MS): Promise<ChartAnswer> {
  let base: URL;
  try {
    base = new URL(`${registry}/`);
  } catch {
    throw new Error(`the property ${CHART_REGISTRY_PROPERTY} is not a URL: ${JSON.stringify(registry)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`the property ${CHART_REGISTRY_PROPERTY} must be an http or https URL`);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const [chartText, schemaText] = await Promise.all([
      fetchText(new URL(`${name}/Chart.yaml`, base).href, signal),
      fetchText(new URL(`${name}/values.schema.json`, base).href, signal),
    ]);
    return { name, chart: parseChartYaml(chartText), schema: parseSchema(schemaText), repository: { ...HELM_REPOSITORY }, source: 'registry', registry };
  } catch (error) {
    if (signal.aborted) throw new Error(`the chart registry ${registry} did not answer within ${timeoutMs / 1000} s`);
    throw error;
  }
}

/**
 * Spec §7 "GitOps wizard: fetches each chart's Chart.yaml and values schema": live from the registry
 * when the property names one, else (or when that fails) the shipped chart, with a note saying why.
 * Undefined when neither has the chart.
 */
export async function loadChart(db: Queryable, name: string, timeoutMs = REGISTRY_TIMEOUT_MS): Promise<{ chart?: ChartAnswer; problem?: string }> {
  const registry = await chartRegistry(db);
  if (!registry) {
    const shipped = await shippedChart(name);
    return shipped ? { chart: shipped } : {};
  }
  try {
    return { chart: await registryChart(registry, name, timeoutMs) };
  } catch (error) {
    const problem = messageOf(error);
    const shipped = await shippedChart(name);
    if (!shipped) return { problem };
    return { chart: { ...shipped, registry, note: `The chart registry could not be read (${problem}); showing the chart shipped with this console.` } };
  }
}
