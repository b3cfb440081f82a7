import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfigHealthBadge } from '@web/features/catalog/components/config-health';
import { CONFIG_HEALTHS, type ConfigHealth } from '@web/features/catalog/api/schema';
import { DateTime } from '@web/ui/primitives/date-time';
import type { ApplicationReport, ReportConfig } from './api';

/**
 * The report's tables: plain tables (every row in the document, none virtualised) so the printed report
 * holds all of them.
 */

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

export function ReportTable<Row extends { id: string }>({ label, rows, columns, empty }: { label: string; rows: readonly Row[]; columns: ReadonlyArray<Column<Row>>; empty: string }) {
  if (rows.length === 0) return <p className="py-3 text-sm text-slate-500">{empty}</p>;
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 print:overflow-visible">
      <table aria-label={label} className="w-full border-collapse text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className="px-3 py-2 font-medium">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="break-inside-avoid border-t border-slate-100">
              {columns.map((column) => (
                <td key={column.header} className="px-3 py-1.5 align-top text-slate-700">
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function asHealth(value: string | null): ConfigHealth | null {
  return CONFIG_HEALTHS.find((health) => health === value) ?? null;
}

export function ConfigLink({ config }: { config: { id: string; name: string | null; type: string } }) {
  return (
    <Link to={`/catalog/${config.id}`} className="text-blue-700 hover:underline" title={config.type}>
      {config.name ?? config.id}
    </Link>
  );
}

const Muted = ({ children }: { children: ReactNode }) => <span className="text-slate-400">{children}</span>;

export const CONFIG_COLUMNS: ReadonlyArray<Column<ReportConfig>> = [
  { header: 'Name', cell: (row) => <ConfigLink config={row} /> },
  { header: 'Type', cell: (row) => row.type },
  { header: 'Namespace', cell: (row) => row.namespace ?? <Muted>—</Muted> },
  { header: 'Health', cell: (row) => (row.deleted ? <Muted>deleted</Muted> : <ConfigHealthBadge health={asHealth(row.health)} status={row.status} />) },
];

type Login = ApplicationReport['logins'][number];
export const LOGIN_COLUMNS: ReadonlyArray<Column<Login>> = [
  { header: 'When', cell: (row) => <DateTime value={row.created_at} /> },
  { header: 'User', cell: (row) => <span title={row.user.email ?? undefined}>{row.user.name}</span> },
  { header: 'Config', cell: (row) => <ConfigLink config={row.config} /> },
  { header: 'Role', cell: (row) => row.role ?? <Muted>—</Muted> },
  { header: 'MFA', cell: (row) => (row.mfa ? 'Yes' : <span className="text-amber-700">No</span>) },
  { header: 'Outcome', cell: (row) => row.outcome },
  { header: 'Client', cell: (row) => row.client_ip || <Muted>—</Muted> },
  { header: 'Count', cell: (row) => row.count },
];

type Access = ApplicationReport['access'][number];
export const ACCESS_COLUMNS: ReadonlyArray<Column<Access>> = [
  { header: 'Who', cell: (row) => (row.user ? <span title={row.user.email ?? undefined}>{row.user.name}</span> : row.group ? `${row.group.name} (group)` : <Muted>—</Muted>) },
  { header: 'Role', cell: (row) => [row.mapped_role, row.role].filter(Boolean).join(' · ') || <Muted>—</Muted> },
  { header: 'Config', cell: (row) => <ConfigLink config={row.config} /> },
  { header: 'Granted', cell: (row) => <DateTime value={row.created_at} /> },
  { header: 'Last login', cell: (row) => (row.last_login ? <DateTime value={row.last_login} /> : <Muted>never</Muted>) },
  { header: 'Last reviewed', cell: (row) => (row.last_reviewed_at ? <DateTime value={row.last_reviewed_at} /> : <Muted>never</Muted>) },
];

type Review = ApplicationReport['accessReviews'][number];
export const REVIEW_COLUMNS: ReadonlyArray<Column<Review>> = [
  { header: 'When', cell: (row) => <DateTime value={row.created_at} /> },
  { header: 'User', cell: (row) => row.user.name },
  { header: 'Role', cell: (row) => row.role ?? <Muted>—</Muted> },
  { header: 'Config', cell: (row) => <ConfigLink config={row.config} /> },
  { header: 'Status', cell: (row) => row.status },
  { header: 'Source', cell: (row) => row.source || <Muted>—</Muted> },
];

type Change = ApplicationReport['changes'][number];
export const CHANGE_COLUMNS: ReadonlyArray<Column<Change>> = [
  { header: 'When', cell: (row) => <DateTime value={row.created_at} /> },
  { header: 'Config', cell: (row) => <ConfigLink config={row.config} /> },
  { header: 'Change', cell: (row) => row.change_type },
  { header: 'Severity', cell: (row) => row.severity },
  { header: 'Summary', cell: (row) => row.summary ?? <Muted>—</Muted> },
  { header: 'Count', cell: (row) => row.count },
];

type Incident = ApplicationReport['incidents'][number];
export const INCIDENT_COLUMNS: ReadonlyArray<Column<Incident>> = [
  { header: 'Incident', cell: (row) => <Link to={`/incidents/${row.id}`} className="text-blue-700 hover:underline">{row.incident_id}</Link> },
  { header: 'Title', cell: (row) => row.title },
  { header: 'Severity', cell: (row) => row.severity },
  { header: 'Status', cell: (row) => row.status },
  { header: 'Opened', cell: (row) => <DateTime value={row.created_at} /> },
  { header: 'Resolved', cell: (row) => (row.resolved_at ? <DateTime value={row.resolved_at} /> : <Muted>—</Muted>) },
  { header: 'Config', cell: (row) => <ConfigLink config={row.config} /> },
];
