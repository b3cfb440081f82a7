import type { PostgrestClient } from '@supabase/postgrest-js';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '@web/app/session';
import { db, DB_URL } from './db';
import { SHARED_LOOKUP_STALE_TIME } from './query-client';

/**
 * Feature flags (spec §6): an area is disabled by a `properties` row named '{feature}.disable' whose value
 * is 'true'. Areas are plain names ('health', 'config', …); settings pages are 'settings.<page>'
 * ('settings.job_history', …). Some settings pages belong to an area and go with it.
 */
export const FEATURE_PARENTS: Readonly<Record<string, string>> = {
  'settings.config_scraper': 'config',
  'settings.topology': 'topology',
  'settings.health': 'health',
  'settings.job_history': 'health',
  'settings.logging_backends': 'logs',
};

const SUFFIX = '.disable';

export interface PropertyRow {
  name: string;
  value: string | null;
}

/** The set of features switched off by the given property rows. */
export function disabledFeatures(rows: readonly PropertyRow[]): ReadonlySet<string> {
  const disabled = new Set<string>();
  for (const row of rows) {
    if (!row.name.endsWith(SUFFIX) || row.name.length === SUFFIX.length) continue;
    if ((row.value ?? '').trim().toLowerCase() !== 'true') continue;
    disabled.add(row.name.slice(0, -SUFFIX.length));
  }
  return disabled;
}

/** True unless the feature, or the area it inherits from, is disabled. No feature means always on. */
export function isFeatureEnabled(feature: string | undefined, disabled: ReadonlySet<string>): boolean {
  if (!feature) return true;
  if (disabled.has(feature)) return false;
  const parent = FEATURE_PARENTS[feature];
  return parent === undefined || !disabled.has(parent);
}

export const featureFlagsQueryKey = ['properties', 'feature-flags'] as const;

function toRows(data: unknown): PropertyRow[] {
  if (!Array.isArray(data)) return [];
  const rows: PropertyRow[] = [];
  for (const item of data) {
    if (!item || typeof item !== 'object') continue;
    const name: unknown = Reflect.get(item, 'name');
    const value: unknown = Reflect.get(item, 'value');
    if (typeof name === 'string') rows.push({ name, value: typeof value === 'string' ? value : null });
  }
  return rows;
}

async function readDisabledFeatures(client: PostgrestClient): Promise<ReadonlySet<string>> {
  const { data, error } = await client.from('properties').select('name,value').like('name', '%.disable');
  if (error) throw new Error(error.message || 'Could not load feature flags', { cause: error });
  return disabledFeatures(toRows(data));
}

let early: Promise<ReadonlySet<string> | undefined> | undefined;

/**
 * Reads the flags at app start, beside whoami rather than after it (a page waits for both). Nobody may be
 * signed in yet, so this read reports no 401 (db.ts would send the browser to the auth-state checker) and
 * keeps no failure: the first read of a signed-in person takes its answer, or asks again the usual way.
 */
export function prefetchFeatureFlags(): void {
  // fetch is called here, synchronously: a PostgREST builder would send it only when awaited, a microtask
  // later, after the rest of the shell's start (about 200 ms on a busy machine).
  const url = `${DB_URL}/properties?select=name,value&name=like.${encodeURIComponent('%.disable')}`;
  const response = fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  early = response
    .then(async (answer) => (answer.ok ? disabledFeatures(toRows(await answer.json())) : undefined))
    .catch(() => undefined);
}

async function fetchDisabledFeatures(): Promise<ReadonlySet<string>> {
  const started = early;
  early = undefined;
  const flags = started ? await started : undefined;
  return flags ?? readDisabledFeatures(db);
}

export interface FeatureFlags {
  /** False until the flags are known (or failed to load). */
  ready: boolean;
  isEnabled: (feature: string | undefined) => boolean;
}

/**
 * The current flags, shared by the sidebar and the route gates. When the flags cannot be read every area
 * stays on: the server still enforces access, and a broken properties read must not blank the console.
 * Reading them needs a signed-in person, so nothing is asked before (or without) one: the sign-in pages
 * would otherwise provoke a 401.
 */
export function useFeatureFlags(): FeatureFlags {
  const session = useSession();
  const signedIn = session.status === 'ready' && session.user !== undefined;
  const query = useQuery({
    queryKey: featureFlagsQueryKey,
    queryFn: fetchDisabledFeatures,
    staleTime: SHARED_LOOKUP_STALE_TIME,
    retry: false,
    enabled: signedIn,
  });
  const disabled = query.data ?? new Set<string>();
  return {
    ready: signedIn ? !query.isPending : session.status !== 'loading',
    isEnabled: (feature) => isFeatureEnabled(feature, disabled),
  };
}
