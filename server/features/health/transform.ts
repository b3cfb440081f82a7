import { isRecord } from '../../platform/errors';
import { ExpressionError } from '../../platform/expressions';
import type { CheckResult } from './results';

/** A metric a check reports for /metrics (canary-checker's pkg.Metric). */
export interface MetricSample {
  name: string;
  type: string;
  value: number;
  labels: Record<string, string>;
}

/** One result of a transform that names a check of its own (canary-checker's TransformedCheckResult). */
export interface TransformedResult {
  name: string;
  /** Where the new check lives; the parent's namespace when not given. */
  namespace: string | null;
  description: string | null;
  icon: string | null;
  type: string | null;
  endpoint: string | null;
  labels: Record<string, string>;
  transformDeleteStrategy: string | null;
  /** The transform reports the check as deleted (`deletedAt`). */
  deleted: boolean;
  metrics: MetricSample[];
  result: CheckResult;
}

/**
 * What a transform answered, as canary-checker reads it: a list (or one map) of results. When the first has
 * a name other than the check's own, each becomes a check of its own; one result without a name changes
 * the check's own result in place (pass, message, metrics, labels…).
 */
export type TransformOutcome =
  | { kind: 'checks'; results: TransformedResult[] }
  | { kind: 'inline'; patch: InlinePatch };

export interface InlinePatch {
  pass?: boolean;
  invalid?: boolean;
  duration?: number;
  message?: string;
  description?: string;
  error?: string;
  labels?: Record<string, string>;
  metrics: MetricSample[];
  data?: Record<string, unknown>;
  /** `detail: "$delete"` drops the result's details. */
  detail?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null && item !== undefined).map(([key, item]) => [key, String(item)]));
}

/** A JSON text (canary-checker transforms end in `.toJSON()`) or the value itself. */
function decoded(value: unknown, fail: (reason: string) => never): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed === '') return [];
  try {
    return JSON.parse(trimmed);
  } catch {
    return fail(`must answer JSON (a result or a list of results), not ${JSON.stringify(trimmed.slice(0, 120))}`);
  }
}

export function readMetrics(value: unknown, fail: (reason: string) => never): MetricSample[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail('metrics must be a list of {name, type, value, labels}');
  return value.map((item, index) => {
    if (!isRecord(item) || !text(item.name)) return fail(`metrics[${index}] has no name`);
    const number = typeof item.value === 'number' ? item.value : Number(item.value);
    if (!Number.isFinite(number)) return fail(`metrics[${index}].value ${JSON.stringify(item.value)} is not a number`);
    return { name: String(item.name), type: text(item.type) ?? 'gauge', value: number, labels: stringMap(item.labels) };
  });
}

function resultOf(item: Record<string, unknown>, time: Date): CheckResult {
  return {
    pass: flag(item.pass) ?? false,
    invalid: flag(item.invalid) ?? false,
    time: typeof item.start === 'string' && !Number.isNaN(Date.parse(item.start)) ? new Date(item.start) : time,
    duration: typeof item.duration === 'number' ? item.duration : 0,
    message: text(item.message) ?? '',
    error: text(item.error) ?? null,
    details: isRecord(item.detail) ? item.detail : null,
  };
}

/** Reads a transform's answer; a malformed one throws an ExpressionError naming the expression. */
export function readTransform(value: unknown, own: { name: string }, time: Date, where: string, expression: string): TransformOutcome {
  const fail = (reason: string): never => {
    throw new ExpressionError(where, expression, reason);
  };
  const answer = decoded(value, fail);
  const list = Array.isArray(answer) ? answer : isRecord(answer) ? [answer] : fail('must answer a result or a list of results (maps with name, pass, message…)');
  if (list.length === 0) return { kind: 'checks', results: [] };
  const items = list.map((item, index) => (isRecord(item) ? item : fail(`result ${index + 1} is not a map`)));
  const first = items[0];
  if (first && (text(first.name) === undefined || first.name === own.name)) {
    if (items.length > 1) fail('answered more than one result without a name');
    return { kind: 'inline', patch: inlinePatch(first, fail) };
  }
  return {
    kind: 'checks',
    results: items.map((item, index) => {
      const name = text(item.name);
      if (!name) return fail(`result ${index + 1} has no name`);
      return {
        name: name.trim(),
        namespace: text(item.namespace) ?? null,
        description: text(item.description) ?? null,
        icon: text(item.icon) ?? null,
        type: text(item.type) ?? null,
        endpoint: text(item.endpoint) ?? null,
        labels: stringMap(item.labels),
        transformDeleteStrategy: text(item.transformDeleteStrategy) ?? null,
        deleted: text(item.deletedAt) !== undefined,
        metrics: readMetrics(item.metrics, fail),
        result: resultOf(item, time),
      };
    }),
  };
}

function inlinePatch(item: Record<string, unknown>, fail: (reason: string) => never): InlinePatch {
  const patch: InlinePatch = { metrics: readMetrics(item.metrics, fail) };
  const pass = flag(item.pass);
  if (pass !== undefined) patch.pass = pass;
  const invalid = flag(item.invalid);
  if (invalid !== undefined) patch.invalid = invalid;
  if (typeof item.duration === 'number') patch.duration = item.duration;
  const message = text(item.message);
  if (message !== undefined) patch.message = message;
  const description = text(item.description);
  if (description !== undefined) patch.description = description;
  const error = text(item.error);
  if (error !== undefined) patch.error = error;
  if (isRecord(item.labels) && Object.keys(item.labels).length > 0) patch.labels = stringMap(item.labels);
  if (isRecord(item.data)) patch.data = item.data;
  if (item.detail !== undefined && item.detail !== null) patch.detail = item.detail;
  return patch;
}
