import { isMap, isScalar, parseDocument, stringify, type Document } from 'yaml';
import { z } from 'zod';
import { jsonValueSchema, type ResourceWrite } from '@web/features/settings/resources/form-values';
import type { ResourceRow } from '@web/features/settings/resources/values';
import { CANARY_FIELDS } from './spec-fields';

/** A canary as the editor holds it: what POST and PUT /api/canary/canaries take. */
export interface CanaryDocument {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** The same shape serves every resource edited as name, namespace, labels and spec (ScrapeConfig too). */
export type ResourceDocument = CanaryDocument;

export const CANARY_API_VERSION = 'canaries.flanksource.com/v1';
export const CANARY_KIND = 'Canary';

/**
 * What the Code tab's YAML of a resource kind looks like: its apiVersion and kind, the words its
 * messages use, and the spec keys read first. The canary editor and the scraper editor share the parser.
 */
export interface YamlKind {
  apiVersion: string;
  kind: string;
  /** What a person calls one, in messages: 'health check'. */
  noun: string;
  /** What its spec holds, in messages: 'the schedule and the checks by type'. */
  specHint: string;
  /** Spec keys written first, in this order; the others follow as they come. */
  leadingKeys: readonly string[];
}
/** Spec §3 "Resource spec form values": namespace defaults to 'default'. */
export const DEFAULT_NAMESPACE = 'default';

/** A key path in the YAML document, e.g. ['spec', 'http', 0, 'url']. */
export type DocPath = ReadonlyArray<string | number>;

export interface DocProblem {
  path: DocPath;
  message: string;
  /** Character offsets, when the problem is a YAML syntax error (others are located by path). */
  range?: readonly [number, number];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The labels of a row or a YAML mapping, texts only. */
function labelsOf(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** A canaries row of /api/db as a document; a new canary starts empty in the default namespace. */
export function rowToDocument(row: ResourceRow | null): CanaryDocument {
  if (!row) return { name: '', namespace: DEFAULT_NAMESPACE, labels: {}, spec: {} };
  return { name: text(row.name), namespace: text(row.namespace) || DEFAULT_NAMESPACE, labels: labelsOf(row.labels), spec: isRecord(row.spec) ? row.spec : {} };
}

/** The body of POST and PUT /api/canary/canaries. */
export function documentToWrite(doc: CanaryDocument): ResourceWrite {
  return {
    name: doc.name.trim(),
    namespace: doc.namespace.trim() || DEFAULT_NAMESPACE,
    labels: doc.labels,
    spec: z.record(z.string(), jsonValueSchema).parse(doc.spec),
  };
}

export const CANARY_YAML: YamlKind = {
  apiVersion: CANARY_API_VERSION,
  kind: CANARY_KIND,
  noun: 'health check',
  specHint: 'the schedule and the checks by type',
  leadingKeys: CANARY_FIELDS,
};

/**
 * The spec's keys for reading: the kind's own fields (schedule first) before the rest. The database
 * hands JSON objects back in its own key order, so a saved spec is put in this order again.
 */
function readingOrder(spec: Record<string, unknown>, leading: readonly string[]): Record<string, unknown> {
  const own = leading.filter((key) => Object.hasOwn(spec, key));
  return Object.fromEntries([...own, ...Object.keys(spec).filter((key) => !leading.includes(key))].map((key) => [key, spec[key]]));
}

/** The Code tab's text: the whole resource, as a file `watchkeeper apply` accepts. */
export function resourceToYaml(doc: ResourceDocument, kind: YamlKind): string {
  const metadata: Record<string, unknown> = { name: doc.name, namespace: doc.namespace };
  if (Object.keys(doc.labels).length > 0) metadata.labels = doc.labels;
  return stringify({ apiVersion: kind.apiVersion, kind: kind.kind, metadata, spec: readingOrder(doc.spec, kind.leadingKeys) }, { lineWidth: 0 });
}

/** The whole Canary, as a file `watchkeeper apply` (and canary-checker) accepts. */
export function documentToYaml(doc: CanaryDocument): string {
  return resourceToYaml(doc, CANARY_YAML);
}

export interface ParsedYaml {
  /**
   * The document, when the text can be read as a Canary (a missing name is a problem, not a reason to
   * refuse it: the form shows the rest); null when it cannot.
   */
  doc: CanaryDocument | null;
  /** Every problem; saving needs none. */
  problems: DocProblem[];
  /** The parsed YAML, for locating paths in the text. */
  yaml: Document;
}

/** The Code tab's text as a Canary (parseResourceYaml). */
export function parseCanaryYaml(source: string): ParsedYaml {
  return parseResourceYaml(source, CANARY_YAML);
}

/**
 * The Code tab's text as a document: YAML syntax errors with their position, then the shape of the
 * kind (metadata.name, text labels, a spec mapping), each problem with its path.
 */
export function parseResourceYaml(source: string, kind: YamlKind): ParsedYaml {
  const yaml = parseDocument(source, { prettyErrors: false, uniqueKeys: true });
  if (yaml.errors.length > 0) {
    return { doc: null, yaml, problems: yaml.errors.map((error) => ({ path: [], message: error.message.split('\n')[0] ?? error.message, range: error.pos })) };
  }
  let value: unknown;
  try {
    value = yaml.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { doc: null, yaml, problems: [{ path: [], message: error instanceof Error ? error.message : 'the YAML cannot be read' }] };
  }
  if (!isRecord(value)) return { doc: null, yaml, problems: [{ path: [], message: `must be a ${kind.kind}: a mapping with metadata (name, namespace, labels) and spec` }] };
  // Problems that leave no document to show (the form would have to drop or change something).
  const blocking: DocProblem[] = [];
  const problems: DocProblem[] = [];
  if (value.kind !== undefined && value.kind !== kind.kind) problems.push({ path: ['kind'], message: `must be ${kind.kind}` });
  const metadata = value.metadata ?? {};
  if (!isRecord(metadata)) blocking.push({ path: ['metadata'], message: 'must be a mapping with name, namespace and labels' });
  const meta = isRecord(metadata) ? metadata : {};
  if (typeof meta.name !== 'string' || meta.name.trim() === '') {
    if (meta.name !== undefined && meta.name !== null && typeof meta.name !== 'string') blocking.push({ path: ['metadata', 'name'], message: 'must be text' });
    else problems.push({ path: isRecord(value.metadata) ? ['metadata', 'name'] : ['metadata'], message: isRecord(value.metadata) ? 'is required' : 'is required: a mapping with the name' });
  }
  if (meta.namespace !== undefined && meta.namespace !== null && typeof meta.namespace !== 'string') blocking.push({ path: ['metadata', 'namespace'], message: 'must be text' });
  const labels = meta.labels;
  if (labels !== undefined && labels !== null) {
    if (!isRecord(labels)) blocking.push({ path: ['metadata', 'labels'], message: 'must be a mapping of label names to texts' });
    else for (const [key, label] of Object.entries(labels)) if (typeof label !== 'string') blocking.push({ path: ['metadata', 'labels', key], message: 'must be text (put it in quotes)' });
  }
  const spec = value.spec ?? {};
  if (!isRecord(spec)) blocking.push({ path: ['spec'], message: `must be a mapping with ${kind.specHint}` });
  else if (value.spec === undefined || value.spec === null) problems.push({ path: ['spec'], message: `is required: a mapping with ${kind.specHint}` });
  if (blocking.length > 0 || !isRecord(spec)) return { doc: null, yaml, problems: [...blocking, ...problems] };
  return {
    yaml,
    problems,
    doc: { name: text(meta.name), namespace: typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : DEFAULT_NAMESPACE, labels: labelsOf(labels), spec },
  };
}

/**
 * Character offsets of a path in the YAML: the value's node, or for a missing key the nearest mapping
 * that should hold it (its first key, so the mark sits on a line a person can see).
 */
export function locate(yaml: Document, path: DocPath): readonly [number, number] {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = depth === 0 ? yaml.contents : yaml.getIn(path.slice(0, depth), true);
    if (!node || typeof node !== 'object' || !('range' in node) || !Array.isArray(node.range)) continue;
    const range: unknown[] = node.range;
    const [start, end] = range;
    if (typeof start !== 'number' || typeof end !== 'number') continue;
    if (depth < path.length && isMap(node)) {
      // A missing key: mark the mapping's first key rather than the whole mapping.
      const first = node.items[0]?.key;
      if (isScalar(first) && first.range) return [first.range[0], first.range[1]];
    }
    if (depth === path.length && depth > 0) {
      // A key's value: mark the key too when the value is a collection spanning many lines.
      const parent = yaml.getIn(path.slice(0, depth - 1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[depth - 1]);
        if (pair && isScalar(pair.key) && pair.key.range && !isScalar(node)) return [pair.key.range[0], pair.key.range[1]];
      }
    }
    return [start, Math.max(start, end)];
  }
  return [0, 0];
}

/** 'spec.http[0].url' (the server's problem paths, 'body.' included) as ['spec', 'http', 0, 'url']. */
export function parseProblemPath(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const part of path.replace(/^body\./, '').split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      segments.push(part);
      continue;
    }
    if (match[1]) segments.push(match[1]);
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** ['spec', 'http', 0, 'url'] as the server writes it: 'spec.http[0].url'. */
export function formatPath(path: DocPath): string {
  return path.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment), '');
}

/** Spec §5: name and namespace cannot be edited once the resource exists (the Code tab could try). */
export function immutableProblems(doc: CanaryDocument, original: Pick<CanaryDocument, 'name' | 'namespace'> | null, noun: string = CANARY_YAML.noun): DocProblem[] {
  if (!original) return [];
  const problems: DocProblem[] = [];
  if (doc.name !== original.name) problems.push({ path: ['metadata', 'name'], message: `cannot be changed once the ${noun} exists (it is ${original.name})` });
  if (doc.namespace !== original.namespace) problems.push({ path: ['metadata', 'namespace'], message: `cannot be changed once the ${noun} exists (it is ${original.namespace})` });
  return problems;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])]));
}

/** Whether two documents say the same, whatever the order of their keys. */
export function sameDocument(a: CanaryDocument, b: CanaryDocument): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}
