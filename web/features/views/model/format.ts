import { formatBytes, formatDuration } from '@common/format';
import type { GaugeOptions, ViewColumn, ViewRow } from '../api/schema';

/** Pure formatting of view cells per column type (spec: column types rendered), shared by table and panels. */

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return null;
}

/** A unit after a number: ' workloads' keeps its own space, '%' sticks, anything else gets one space. */
export function withUnit(text: string, unit: string | null | undefined): string {
  if (!unit || text === '') return text;
  if (/^\s/.test(unit) || unit === '%') return `${text}${unit}`;
  return `${text} ${unit}`;
}

export function formatNumber(value: number, precision?: number | null): string {
  const digits = precision ?? (Number.isInteger(value) ? 0 : 2);
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: precision ?? 0, maximumFractionDigits: digits }).format(value);
}

/** Millicores: 625 → '625m', 1500 → '1.5 cores'; a Kubernetes quantity string ('250m', '2') reads as it is. */
export function formatMillicores(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return typeof value === 'string' ? value : '';
  if (Math.abs(n) < 1000) return `${formatNumber(n)}m`;
  return `${formatNumber(n / 1000)} ${n === 1000 ? 'core' : 'cores'}`;
}

/**
 * Durations: a number is nanoseconds (Go's time.Duration, which Mission Control files write, e.g.
 * 86400000000000 for a day); a text such as '2h30m' or an interval reads as it is.
 */
export function formatViewDuration(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return typeof value === 'string' ? value : '';
  return formatDuration(n / 1e6);
}

export function formatViewBytes(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return typeof value === 'string' ? value : '';
  return formatBytes(n);
}

/** Labels as key/value pairs: a JSON object, or its text; anything else gives none. */
export function labelPairs(value: unknown): Array<[string, string]> {
  let object: unknown = value;
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!object || typeof object !== 'object' || Array.isArray(object)) return [];
  return Object.entries(object)
    .filter(([key]) => key !== '__proto__')
    .map(([key, v]): [string, string] => [key, typeof v === 'string' ? v : JSON.stringify(v)])
    .sort(([a], [b]) => a.localeCompare(b));
}

export function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 't' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 'f' || value === 0 || value === '0') return false;
  return null;
}

/** The text of a plain cell (types whose rendering is only text: string, number, decimal, bytes, …). */
export function formatCellText(column: Pick<ViewColumn, 'type' | 'unit'>, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (column.type) {
    case 'number':
    case 'decimal': {
      const n = toNumber(value);
      return n === null ? String(value) : withUnit(formatNumber(n, column.type === 'decimal' ? null : undefined), column.unit);
    }
    case 'bytes':
      return formatViewBytes(value);
    case 'millicore':
      return formatMillicores(value);
    case 'duration':
      return formatViewDuration(value);
    case 'boolean': {
      const b = toBoolean(value);
      return b === null ? String(value) : b ? 'Yes' : 'No';
    }
    default:
      if (typeof value === 'object') return JSON.stringify(value);
      return withUnit(String(value), column.type === 'string' ? column.unit : undefined);
  }
}

/** Health words as the catalog's four (spec §4 colours). */
export type HealthWord = 'healthy' | 'unhealthy' | 'warning' | 'unknown';
export function healthWord(value: unknown): HealthWord {
  const text = typeof value === 'string' ? value.toLowerCase() : '';
  if (text === 'healthy' || text === 'unhealthy' || text === 'warning') return text;
  return 'unknown';
}

// ---------------------------------------------------------------------------------------------------
// Gauges (column type gauge, panels gauge and bargauge)

export interface GaugeReading {
  value: number;
  min: number;
  max: number;
  /** 0..100, clamped. */
  percent: number;
  color: string;
}

const DEFAULT_GAUGE_COLOR = '#3b82f6';

/**
 * Where a value sits between min and max and its colour: the last threshold whose percent (or, in older
 * files, value) the reading reaches. Min and max default to 0 and 100.
 */
export function gaugeReading(value: number, options: GaugeOptions | null | undefined, overrides: { min?: unknown; max?: unknown } = {}): GaugeReading {
  const min = toNumber(overrides.min) ?? toNumber(options?.min) ?? 0;
  const max = toNumber(overrides.max) ?? toNumber(options?.max) ?? 100;
  const span = max - min;
  const percent = span > 0 ? Math.min(100, Math.max(0, ((value - min) / span) * 100)) : 0;
  let color = DEFAULT_GAUGE_COLOR;
  const thresholds = [...(options?.thresholds ?? [])].sort((a, b) => thresholdPercent(a, min, span) - thresholdPercent(b, min, span));
  for (const threshold of thresholds) {
    if (percent >= thresholdPercent(threshold, min, span)) color = threshold.color;
  }
  return { value, min, max, percent, color };
}

function thresholdPercent(threshold: { percent?: number | null; value?: number | null }, min: number, span: number): number {
  if (threshold.percent !== null && threshold.percent !== undefined) return threshold.percent;
  if (threshold.value !== null && threshold.value !== undefined && span > 0) return ((threshold.value - min) / span) * 100;
  return 0;
}

/** A gauge cell's value: a number, or an object { value, min?, max? } (a jsonb gauge column). */
export function gaugeCell(value: unknown): { value: number; min?: unknown; max?: unknown } | null {
  const n = toNumber(value);
  if (n !== null) return { value: n };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const inner = toNumber(Reflect.get(value, 'value'));
    if (inner === null) return null;
    return { value: inner, min: Reflect.get(value, 'min'), max: Reflect.get(value, 'max') };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Links

/** Per-row attributes the engine may store with a row (Mission Control's `__row__attributes`). */
export function rowAttribute(row: ViewRow, column: string, key: string): unknown {
  const attributes = row.__row__attributes;
  if (!attributes || typeof attributes !== 'object') return undefined;
  const own: unknown = Reflect.get(attributes, column);
  return own && typeof own === 'object' ? Reflect.get(own, key) : undefined;
}

/** The value of a trivial CEL expression over the row: `row.field`, `row["field"]`, or a quoted literal; else undefined. */
export function simpleRowValue(expression: unknown, row: ViewRow): string | undefined {
  if (typeof expression !== 'string') return undefined;
  const text = expression.trim();
  const field = /^row\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(text)?.[1] ?? /^row\[["']([^"']+)["']\]$/.exec(text)?.[1];
  if (field !== undefined) {
    const value = row[field];
    return value === null || value === undefined || value === '' ? undefined : String(value);
  }
  const literal = /^"([^"]*)"$|^'([^']*)'$/.exec(text);
  if (literal) return literal[1] ?? literal[2];
  return undefined;
}

export const viewNamePath = (namespace: string | null | undefined, name: string) =>
  namespace ? `/view/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}` : `/view/${encodeURIComponent(name)}`;

/**
 * Where a cell links to, in order: a helper column of type url `for` this column; the engine's per-row
 * attribute; the column's own `url` (config: an item id → /catalog/{id}; view: /view/{ns}/{name} with its
 * filter as variables) when its expressions are plain row fields; a url column's own value.
 */
export function cellLink(column: ViewColumn, row: ViewRow, columns: readonly ViewColumn[]): string | undefined {
  const helper = columns.find((c) => c.type === 'url' && c.for === column.name);
  if (helper) {
    const value = row[helper.name];
    if (typeof value === 'string' && value !== '') return value;
  }
  const attribute = rowAttribute(row, column.name, 'url');
  if (typeof attribute === 'string' && attribute !== '') return attribute;
  const url = column.url;
  if (url) {
    const config = simpleRowValue(url.config, row);
    if (config && /^[0-9a-f-]{36}$/i.test(config)) return `/catalog/${encodeURIComponent(config)}`;
    const view = url.view;
    if (view && typeof view === 'object') {
      const name = simpleRowValue(Reflect.get(view, 'name'), row) ?? plain(Reflect.get(view, 'name'));
      const namespace = simpleRowValue(Reflect.get(view, 'namespace'), row) ?? plain(Reflect.get(view, 'namespace'));
      if (name) {
        const filter: unknown = Reflect.get(view, 'filter');
        const params = new URLSearchParams();
        if (filter && typeof filter === 'object') {
          for (const [key, expression] of Object.entries(filter)) {
            const value = simpleRowValue(expression, row);
            if (value !== undefined) params.set(`var-${key}`, value);
          }
        }
        const query = params.toString();
        return `${viewNamePath(namespace, name)}${query ? `?${query}` : ''}`;
      }
    }
  }
  if (column.type === 'url') {
    const value = row[column.name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function plain(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9_.-]+$/.test(value) ? value : undefined;
}

/** A link that leaves the console opens in a new tab; our own paths use the router. */
export function isExternalLink(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href);
}

/** Only http(s) and mailto links are followed; `javascript:` and the like from row data are not. */
export function isSafeLink(href: string): boolean {
  return href.startsWith('/') || /^(https?:|mailto:)/i.test(href);
}

/** The config item a config_item cell stands for: { id, name, type } from the row (idField, default 'id') or an object value. */
export function configItemOf(column: ViewColumn, row: ViewRow): { id: string; name: string; type: string } | null {
  const value = row[column.name];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const id: unknown = Reflect.get(value, 'id');
    const name: unknown = Reflect.get(value, 'name');
    const type: unknown = Reflect.get(value, 'type');
    if (typeof id === 'string') return { id, name: typeof name === 'string' ? name : id, type: typeof type === 'string' ? type : '' };
  }
  const idField = column.configItem?.idField || 'id';
  const id = row[idField] ?? rowAttribute(row, column.name, 'id');
  if (typeof id !== 'string' || id === '') return null;
  const type = row.type ?? rowAttribute(row, column.name, 'type');
  return { id, name: value === null || value === undefined ? id : String(value), type: typeof type === 'string' ? type : '' };
}

/** A badge's colour from `badge.color.map` (Mission Control files), when the value is listed. */
export function badgeColor(column: ViewColumn, value: unknown): string | undefined {
  const color: unknown = column.badge ? Reflect.get(column.badge, 'color') : undefined;
  const map: unknown = color && typeof color === 'object' ? Reflect.get(color, 'map') : undefined;
  if (!map || typeof map !== 'object' || typeof value !== 'string') return undefined;
  const picked: unknown = Object.hasOwn(map, value) ? Reflect.get(map, value) : undefined;
  return typeof picked === 'string' && /^(#[0-9a-f]{3,8}|[a-z]+)$/i.test(picked) ? picked : undefined;
}
