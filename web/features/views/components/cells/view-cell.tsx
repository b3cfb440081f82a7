import { Check, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate, formatRelative, toDate } from '@common/format';
import { ConfigHealthDot } from '@web/features/catalog/components/config-health';
import { ConfigIcon } from '@web/features/catalog/components/config-icon';
import { useDisplayPreferences } from '@web/lib/preferences';
import type { ViewColumn, ViewRow } from '../../api/schema';
import {
  badgeColor,
  cellLink,
  configItemOf,
  formatCellText,
  gaugeCell,
  gaugeReading,
  healthWord,
  isExternalLink,
  isSafeLink,
  labelPairs,
  rowAttribute,
  toBoolean,
  withUnit,
} from '../../model/format';
import { GaugeBar } from '../gauge-bar';

const LINK = 'text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600';

/** Wraps a cell's content in its link (another view, an item, or an outside address), when it has one. */
function Linked({ href, children }: { href: string | undefined; children: ReactNode }) {
  if (!href || !isSafeLink(href)) return <>{children}</>;
  if (isExternalLink(href)) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className={LINK}>
        {children}
      </a>
    );
  }
  return (
    <Link to={href} className={LINK}>
      {children}
    </Link>
  );
}

function HealthCell({ value }: { value: unknown }) {
  const word = healthWord(value);
  const text = typeof value === 'string' && value !== '' ? value : word;
  return (
    <span className="inline-flex items-center gap-1.5">
      <ConfigHealthDot health={word} />
      <span className="capitalize">{text}</span>
    </span>
  );
}

function DateCell({ value }: { value: unknown }) {
  const { timeZone } = useDisplayPreferences();
  const date = toDate(typeof value === 'string' || typeof value === 'number' ? value : null);
  if (!date) return <span>{value === null || value === undefined ? '' : String(value)}</span>;
  const relative = formatRelative(date);
  return (
    <time dateTime={date.toISOString()} title={formatDate(date, 'timestamp', timeZone)} className="whitespace-nowrap">
      {date.getTime() > Date.now() ? `in ${relative}` : `${relative} ago`}
    </time>
  );
}

function Labels({ value }: { value: unknown }) {
  const pairs = labelPairs(value);
  return (
    <span className="flex flex-wrap gap-1">
      {pairs.map(([key, v]) => (
        <span key={key} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 ring-1 ring-slate-200 ring-inset" title={`${key}=${v}`}>
          <span className="text-slate-500">{key}</span>={v}
        </span>
      ))}
    </span>
  );
}

/** One cell of a view table, drawn by its column type (spec: column types rendered). */
export function ViewCell({ column, row, columns }: { column: ViewColumn; row: ViewRow; columns: readonly ViewColumn[] }) {
  const value = row[column.name];
  const href = cellLink(column, row, columns);
  switch (column.type) {
    case 'health':
      return (
        <Linked href={href}>
          <HealthCell value={value} />
        </Linked>
      );
    case 'status': {
      const icon = rowAttribute(row, column.name, 'icon');
      return (
        <Linked href={href}>
          <span className="inline-flex items-center gap-1.5">
            {typeof icon === 'string' && ['healthy', 'unhealthy', 'warning', 'unknown'].includes(icon) ? <ConfigHealthDot health={healthWord(icon)} /> : null}
            {value === null || value === undefined ? '' : String(value)}
          </span>
        </Linked>
      );
    }
    case 'gauge': {
      const cell = gaugeCell(value);
      if (!cell) return <span />;
      const reading = gaugeReading(cell.value, column.gauge, {
        min: cell.min ?? rowAttribute(row, column.name, 'min'),
        max: cell.max ?? rowAttribute(row, column.name, 'max'),
      });
      return <GaugeBar reading={reading} label={withUnit(formatCellText({ type: 'number', unit: null }, cell.value), column.unit ?? column.gauge?.unit)} />;
    }
    case 'datetime':
      return (
        <Linked href={href}>
          <DateCell value={value} />
        </Linked>
      );
    case 'boolean': {
      const b = toBoolean(value);
      if (b === null) return <span />;
      return (
        <span className="inline-flex items-center gap-1" aria-label={b ? 'Yes' : 'No'}>
          {b ? <Check className="size-4 text-green-600" aria-hidden="true" /> : <X className="size-4 text-slate-400" aria-hidden="true" />}
          <span className="sr-only">{b ? 'Yes' : 'No'}</span>
        </span>
      );
    }
    case 'labels':
      return <Labels value={value} />;
    case 'badge': {
      if (value === null || value === undefined || value === '') return <span />;
      const color = badgeColor(column, value);
      return (
        <Linked href={href}>
          <span
            className="inline-flex items-center rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200 ring-inset"
            style={color ? { backgroundColor: color, color: '#fff' } : undefined}
          >
            {String(value)}
          </span>
        </Linked>
      );
    }
    case 'config_item': {
      const item = configItemOf(column, row);
      if (!item) return <span>{value === null || value === undefined ? '' : String(value)}</span>;
      return (
        <Link to={href && isSafeLink(href) && !isExternalLink(href) ? href : `/catalog/${encodeURIComponent(item.id)}`} className={`inline-flex items-center gap-1.5 ${LINK}`} title={item.type ? `${item.type}: ${item.name}` : item.name}>
          <ConfigIcon type={item.type} />
          <span className="truncate">{item.name}</span>
        </Link>
      );
    }
    case 'url': {
      const text = typeof value === 'string' ? value : '';
      return <Linked href={href}>{text}</Linked>;
    }
    default:
      return (
        <Linked href={href}>
          <span className={['number', 'decimal', 'bytes', 'millicore', 'duration'].includes(column.type) ? 'tabular-nums' : undefined}>{formatCellText(column, value)}</span>
        </Linked>
      );
  }
}
