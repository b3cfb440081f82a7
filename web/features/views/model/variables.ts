import { readSearchParams } from '@web/lib/url-state';
import type { ViewVariable } from '../api/schema';

/**
 * Variable selections in the URL: `var-<key>=<value>`. Links written the way Mission Control writes them
 * (`/view/ns/name?cluster=a`, a view URL's filter) carry plain keys; those are read too when the key is
 * one of the view's variables, and rewritten as `var-` on the next change.
 */
export const VAR_PREFIX = 'var-';

export type Selection = Record<string, string>;

export function readVariables(params: URLSearchParams, knownKeys: readonly string[] = []): Selection {
  const plain = readSearchParams(params);
  const out: Selection = {};
  for (const key of knownKeys) {
    const value = plain[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  for (const [key, value] of Object.entries(plain)) {
    if (!key.startsWith(VAR_PREFIX) || value === '') continue;
    const name = key.slice(VAR_PREFIX.length);
    if (name !== '' && name !== '__proto__' && name !== 'constructor') out[name] = value;
  }
  return out;
}

/** The keys whose values depend, directly or through others, on `key` (dependsOn). */
export function dependentsOf(key: string, variables: readonly Pick<ViewVariable, 'key' | 'dependsOn'>[]): string[] {
  const out = new Set<string>();
  const queue = [key];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const variable of variables) {
      if (variable.dependsOn?.includes(current ?? '') && !out.has(variable.key) && variable.key !== key) {
        out.add(variable.key);
        queue.push(variable.key);
      }
    }
  }
  return [...out];
}

/** A new selection after one pick: the variables that depend on it are cleared, so their defaults apply again. */
export function changeVariable(selection: Selection, key: string, value: string, variables: readonly Pick<ViewVariable, 'key' | 'dependsOn'>[]): Selection {
  const next: Selection = { ...selection };
  if (value === '') delete next[key];
  else next[key] = value;
  for (const dependent of dependentsOf(key, variables)) delete next[dependent];
  return next;
}

/** Writes a selection into the URL: every `var-` key and every plain variable key is replaced; paging restarts. */
export function writeVariables(params: URLSearchParams, selection: Selection, knownKeys: readonly string[] = []): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of params) {
    if (key.startsWith(VAR_PREFIX) || knownKeys.includes(key) || key === 'page') continue;
    next.append(key, value);
  }
  for (const [key, value] of Object.entries(selection)) if (value !== '') next.set(`${VAR_PREFIX}${key}`, value);
  return next;
}

/** What a picker shows: the chosen value, else the one the server made the rows with, else the default, else nothing. */
export function shownValue(variable: Pick<ViewVariable, 'key' | 'default' | 'selected'>, selection: Selection): string {
  return selection[variable.key] ?? (variable.selected || undefined) ?? variable.default ?? '';
}

/** A picker waits for the variables it depends on: until each has a value, it cannot offer its own. */
export function isWaiting(variable: Pick<ViewVariable, 'dependsOn'>, variables: readonly Pick<ViewVariable, 'key' | 'default' | 'selected'>[], selection: Selection): boolean {
  return (variable.dependsOn ?? []).some((key) => {
    const parent = variables.find((v) => v.key === key);
    return parent ? shownValue(parent, selection) === '' : false;
  });
}
