import { formatDate, formatRelative } from '@common/format';
import { useDisplayPreferences } from '@web/lib/preferences';

/** A moment as its distance from now ('5m ago', or 'in 5m' ahead), the full date (in the person's format and zone) in its title. */
export function Ago({ value, never = 'never' }: { value: string | null | undefined; never?: string }) {
  const { dateFormat, timeZone } = useDisplayPreferences();
  if (!value) return <span className="text-slate-400">{never}</span>;
  const now = new Date();
  const age = formatRelative(value, now);
  const full = formatDate(value, dateFormat, timeZone);
  const ahead = new Date(value).getTime() > now.getTime() + 1000;
  return (
    <time dateTime={value} title={full}>
      {!age ? full : ahead ? `in ${age}` : `${age} ago`}
    </time>
  );
}
