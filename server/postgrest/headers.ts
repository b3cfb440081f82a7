import { PgrstError } from './errors';

/** The `Prefer` preferences we act on; unknown ones are ignored unless `handling=strict`. */
export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | undefined;
  count: boolean;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | undefined;
  missingDefault: boolean;
  /** `max-affected=N` with `handling=strict`: a PATCH/DELETE touching more rows is rolled back (PGRST124). */
  maxAffected: number | undefined;
  /** What to echo in Preference-Applied. */
  applied: string[];
}

type HeaderValue = string | string[] | undefined;

function headerList(value: HeaderValue): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function parsePrefer(header: HeaderValue): Preferences {
  const prefs: Preferences = { return: undefined, count: false, resolution: undefined, missingDefault: false, maxAffected: undefined, applied: [] };
  let maxAffected: number | undefined;
  const invalid: string[] = [];
  let strict = false;
  for (const item of headerList(header)) {
    const [name = '', value = ''] = item.split('=').map((part) => part.trim());
    if (name === 'return' && (value === 'minimal' || value === 'representation' || value === 'headers-only')) {
      prefs.return = value;
      prefs.applied.push(item);
    } else if (name === 'count' && (value === 'exact' || value === 'planned' || value === 'estimated')) {
      // planned/estimated are answered with the exact count: our relations are small enough to count.
      prefs.count = true;
      prefs.applied.push(item);
    } else if (name === 'resolution' && (value === 'merge-duplicates' || value === 'ignore-duplicates')) {
      prefs.resolution = value;
      prefs.applied.push(item);
    } else if (name === 'missing' && (value === 'default' || value === 'null')) {
      prefs.missingDefault = value === 'default';
      prefs.applied.push(item);
    } else if (name === 'max-affected' && /^\d{1,15}$/.test(value)) {
      maxAffected = Number(value);
    } else if (name === 'handling' && (value === 'strict' || value === 'lenient')) {
      strict = value === 'strict';
      prefs.applied.push(item);
    } else {
      invalid.push(item);
    }
  }
  if (strict && invalid.length > 0) {
    throw new PgrstError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${invalid.join(', ')}`);
  }
  // PostgREST honours max-affected only under handling=strict.
  if (strict && maxAffected !== undefined) {
    prefs.maxAffected = maxAffected;
    prefs.applied.push(`max-affected=${maxAffected}`);
  }
  return prefs;
}

/** Accept-Profile / Content-Profile: only the public schema is served (PGRST106 otherwise). */
export function checkProfile(profile: HeaderValue): void {
  if (profile === undefined) return;
  const value = Array.isArray(profile) ? profile.join(',') : profile;
  if (value.trim() !== 'public') {
    throw new PgrstError(406, 'PGRST106', `Invalid schema: ${value.slice(0, 100)}`, null, 'Only the following schemas are exposed: public');
  }
}

export interface MediaChoice {
  singular: boolean;
  stripNulls: boolean;
}

/**
 * Content negotiation: JSON arrays by default, a single object for `application/vnd.pgrst.object+json`
 * (postgrest-js `.single()`), `nulls=stripped` honoured on the pgrst types. Anything else is PGRST107.
 */
export function negotiate(accept: HeaderValue): MediaChoice {
  const offered = headerList(accept);
  if (offered.length === 0) return { singular: false, stripNulls: false };
  for (const entry of offered) {
    const [type = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const stripNulls = params.includes('nulls=stripped');
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return { singular: false, stripNulls: false };
    if (type === 'application/vnd.pgrst.array+json' || type === 'application/vnd.pgrst.array') return { singular: false, stripNulls };
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return { singular: true, stripNulls };
  }
  throw new PgrstError(406, 'PGRST107', `None of these media types are available: ${offered.join(', ').slice(0, 200)}`);
}

/** A requested window of rows: offset and an optional limit. */
export interface Window {
  offset: number;
  limit: number | undefined;
}

/**
 * `Range: 0-9` (with `Range-Unit: items` or none). A header that does not parse is ignored, as
 * PostgREST does; a lower bound above the upper one is PGRST103.
 */
export function parseRangeHeader(range: HeaderValue, unit: HeaderValue): Window | undefined {
  if (typeof range !== 'string') return undefined;
  if (typeof unit === 'string' && unit.trim().toLowerCase() !== 'items') return undefined;
  const match = /^\s*(?:items=)?(\d{1,15})-(\d{0,15})\s*$/.exec(range);
  if (!match) return undefined;
  const lower = Number(match[1]);
  if (match[2] === '' || match[2] === undefined) return { offset: lower, limit: undefined };
  const upper = Number(match[2]);
  if (lower > upper) {
    throw new PgrstError(416, 'PGRST103', 'Requested range not satisfiable', 'The lower boundary must be lower than or equal to the upper boundary in the Range header.');
  }
  return { offset: lower, limit: upper - lower + 1 };
}

/** Intersection of the Range header's window with limit/offset from the query string. */
export function combineWindow(header: Window | undefined, offset: number | undefined, limit: number | undefined): Window {
  const queryWindow: Window = { offset: offset ?? 0, limit };
  if (!header) return queryWindow;
  const start = Math.max(header.offset, queryWindow.offset);
  const ends = [header, queryWindow].filter((w) => w.limit !== undefined).map((w) => w.offset + (w.limit ?? 0));
  const end = ends.length > 0 ? Math.min(...ends) : undefined;
  return { offset: start, limit: end === undefined ? undefined : Math.max(0, end - start) };
}

/** PostgREST's Content-Range: `0-49/1234`, `*\/0` when empty, `0-49/*` without a count. */
export function contentRange(offset: number, rows: number, total: number | undefined): string {
  const upper = offset + rows - 1;
  const range = total !== 0 && offset <= upper ? `${offset}-${upper}` : '*';
  return `${range}/${total === undefined ? '*' : total}`;
}

/** 200, 206 (a part of the total) or 416 (an offset past the total), as PostgREST decides. */
export function rangeStatus(offset: number, rows: number, total: number | undefined): 200 | 206 | 416 {
  if (total === undefined) return 200;
  if (offset > total) return 416;
  if (rows < total) return 206;
  return 200;
}
