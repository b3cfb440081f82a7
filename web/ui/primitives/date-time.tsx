import type { DateFormat } from '@common/constants';
import { BROWSER_TIME_ZONE, formatDate, toDate, type DateInput } from '@common/format/date';
import { useDisplayPreferences } from '@web/lib/preferences';
import { useCallback } from 'react';

/**
 * The one place the web console turns a moment into text (issue 38): every date goes through
 * `formatDate` with the person's preferences (format and time zone). A test fails on any other web file
 * that formats a date itself (toLocaleString, Intl.DateTimeFormat…).
 */

/** Formats a moment as the person reads dates; `format` overrides the preferred format (e.g. 'timestamp' for tooltips). Empty dates give ''. */
export type DateFormatter = (value: DateInput, format?: DateFormat) => string;

export function useFormatDate(): DateFormatter {
  const { dateFormat, timeZone } = useDisplayPreferences();
  return useCallback((value: DateInput, format?: DateFormat) => formatDate(value, format ?? dateFormat, timeZone), [dateFormat, timeZone]);
}

/** The IANA zone the preference means: 'Browser' resolved to this browser's own zone (for a server that renders for us). */
export function resolvedTimeZone(timeZone: string): string {
  if (timeZone !== BROWSER_TIME_ZONE) return timeZone;
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A date as the user chose to read dates (preferences: format and time zone). The exact timestamp is in
 * the tooltip and the `dateTime` attribute, whatever the display format. Empty dates render `empty`.
 */
export function DateTime({ value, empty = '', className }: { value: DateInput; empty?: string; className?: string }) {
  const format = useFormatDate();
  const date = toDate(value);
  if (!date) return <span className={className}>{empty}</span>;
  return (
    <time dateTime={date.toISOString()} title={format(date, 'timestamp')} className={className}>
      {format(date)}
    </time>
  );
}
