import { formatDate, toDate, type DateInput } from '@common/format/date';
import { useDisplayPreferences } from '@web/lib/preferences';

/**
 * A date as the user chose to read dates (preferences: format and time zone). The exact timestamp is in
 * the tooltip and the `dateTime` attribute, whatever the display format. Empty dates render `empty`.
 */
export function DateTime({ value, empty = '', className }: { value: DateInput; empty?: string; className?: string }) {
  const { dateFormat, timeZone } = useDisplayPreferences();
  const date = toDate(value);
  if (!date) return <span className={className}>{empty}</span>;
  return (
    <time dateTime={date.toISOString()} title={formatDate(date, 'timestamp', timeZone)} className={className}>
      {formatDate(date, dateFormat, timeZone)}
    </time>
  );
}
