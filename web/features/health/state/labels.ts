import { MULTI_SELECT_SUMMARY_AT } from '@common/constants';
import { labelFilterPredicate, type LabelFilterEntry } from '@common/health-grouping';
import type { TriState } from '@web/ui/tri-state-filter';

/** One label value the person included (1) or excluded (-1); spec §5 drops the 0s. */
export type { LabelFilterEntry };
export { labelFilterPredicate };

/** Spec §5: URL parsing ignores these keys, wherever they appear. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

// The URL form is `key=value:1,key=value:-1`: the four separator characters (and the escape) are
// percent-escaped inside keys and values, so any label round-trips while ordinary ones stay readable.
const escape = (text: string) => text.replace(/[%,:=]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
const unescape = (text: string) => text.replace(/%(25|2C|3A|3D)/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export function parseLabelFilter(text: string | undefined): LabelFilterEntry[] {
  if (!text) return [];
  const entries = new Map<string, LabelFilterEntry>();
  for (const part of text.split(',')) {
    const colon = part.lastIndexOf(':');
    const equals = part.indexOf('=');
    if (colon < 0 || equals <= 0 || equals > colon) continue;
    const state = part.slice(colon + 1);
    if (state !== '1' && state !== '-1') continue;
    const key = unescape(part.slice(0, equals));
    const value = unescape(part.slice(equals + 1, colon));
    if (FORBIDDEN.has(key)) continue;
    // The last word on a label value wins, as when it was clicked twice.
    entries.set(`${key}\u0000${value}`, { key, value, state: state === '1' ? 1 : -1 });
  }
  return [...entries.values()];
}

/** The URL value, or undefined when nothing is filtered (the parameter then leaves the URL). */
export function formatLabelFilter(entries: readonly LabelFilterEntry[]): string | undefined {
  const text = entries.map((entry) => `${escape(entry.key)}=${escape(entry.value)}:${entry.state}`).join(',');
  return text === '' ? undefined : text;
}

export function labelState(entries: readonly LabelFilterEntry[], key: string, value: string): TriState {
  return entries.find((entry) => entry.key === key && entry.value === value)?.state ?? 0;
}

/** Sets one value's state; 0 removes it (spec §5). */
export function withLabelState(entries: readonly LabelFilterEntry[], key: string, value: string, state: TriState): LabelFilterEntry[] {
  const rest = entries.filter((entry) => !(entry.key === key && entry.value === value));
  return state === 0 ? rest : [...rest, { key, value, state }];
}

export interface LabelOption {
  key: string;
  values: string[];
  /** Spec §5: a label whose values are all true/false is a toggle; the others are multi-selects. */
  boolean: boolean;
}

const isBooleanText = (value: string) => value === 'true' || value === 'false';

/** The label keys of these checks with their values, sorted, for the sidebar's filters. */
export function labelOptions(checks: readonly { labels: Readonly<Record<string, string>> }[]): LabelOption[] {
  const byKey = new Map<string, Set<string>>();
  for (const check of checks) {
    for (const [key, value] of Object.entries(check.labels)) {
      let values = byKey.get(key);
      if (!values) byKey.set(key, (values = new Set()));
      values.add(value);
    }
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, set]) => {
      const values = [...set].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      return { key, values, boolean: values.every(isBooleanText) };
    });
}

/** The multi-select's trigger text: the chosen values, or a count from spec §9's 4 on. */
export function multiSelectSummary(entries: readonly LabelFilterEntry[], key: string): string {
  const chosen = entries.filter((entry) => entry.key === key);
  if (chosen.length === 0) return 'All';
  if (chosen.length >= MULTI_SELECT_SUMMARY_AT) {
    const excluded = chosen.filter((entry) => entry.state === -1).length;
    const included = chosen.length - excluded;
    return [included ? `${included} included` : '', excluded ? `${excluded} excluded` : ''].filter(Boolean).join(', ');
  }
  return chosen.map((entry) => `${entry.state === -1 ? '−' : ''}${entry.value}`).join(', ');
}
