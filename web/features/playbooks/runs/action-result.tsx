import { formatBytes } from '@common/format';
import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import type { RunAction } from '../api/schema';
import { artifactDownloadPath } from '../paths';

function Output({ label, text }: { label: string; text: string }) {
  return (
    <section aria-label={label} className="flex flex-col gap-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h4>
      <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">{text}</pre>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  );
}

const asText = (value: unknown): string | undefined => (typeof value === 'string' ? value : value === undefined || value === null ? undefined : JSON.stringify(value, null, 2));
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined);

function SqlRows({ rows }: { rows: unknown[] }) {
  const records = rows.filter((row): row is Record<string, unknown> => Boolean(row) && typeof row === 'object' && !Array.isArray(row));
  const columns = [...new Set(records.flatMap((row) => Object.keys(row)))];
  if (records.length === 0) return <p className="text-sm text-slate-600">No rows</p>;
  return (
    <div className="max-h-96 overflow-auto rounded-md border border-slate-200">
      <table aria-label="Rows" className="min-w-full text-left text-xs">
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => (
              <th key={column} className="px-2 py-1 font-semibold text-slate-700">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((row, index) => (
            <tr key={index} className="border-t border-slate-100">
              {columns.map((column) => (
                <td key={column} className="px-2 py-1 font-mono text-slate-800">
                  {asText(row[column]) ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What an action left: exec's output and exit code, HTTP's status and body, SQL's rows, else the result as JSON. */
export function ActionResult({ action }: { action: RunAction }) {
  const result = action.result ?? {};
  const type = action.type ?? '';
  const parts: ReactNode[] = [];
  const facts: ReactNode[] = [];
  const exitCode = asNumber(result.exitCode);
  if (exitCode !== undefined) facts.push(<Fact key="exit" label="Exit code">{exitCode}</Fact>);
  const code = asNumber(result.code);
  if (type === 'http' || code !== undefined) {
    if (code !== undefined) facts.push(<Fact key="code" label="HTTP status">{code}</Fact>);
  }
  const count = asNumber(result.count);
  if (count !== undefined) facts.push(<Fact key="count" label="Rows">{count}</Fact>);
  // exec names the program and its arguments (the rendered script is the last one).
  if (Array.isArray(result.args)) parts.push(<Output key="command" label="Command" text={result.args.map(String).join(' ')} />);
  const stdout = asText(result.stdout);
  const stderr = asText(result.stderr);
  if (stdout !== undefined) parts.push(<Output key="stdout" label="stdout" text={stdout || '(empty)'} />);
  if (stderr) parts.push(<Output key="stderr" label="stderr" text={stderr} />);
  const body = asText(result.body);
  if (body !== undefined) parts.push(<Output key="body" label="Body" text={body} />);
  if (result.headers && typeof result.headers === 'object') parts.push(<Output key="headers" label="Headers" text={JSON.stringify(result.headers, null, 2)} />);
  if (Array.isArray(result.rows)) {
    parts.push(
      <section key="rows" aria-label="SQL rows" className="flex flex-col gap-1">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Rows</h4>
        <SqlRows rows={result.rows} />
      </section>,
    );
  }
  const known = new Set(['stdout', 'stderr', 'exitCode', 'code', 'headers', 'body', 'rows', 'count', 'args', 'path']);
  const rest = Object.fromEntries(Object.entries(result).filter(([key]) => !known.has(key)));
  if (Object.keys(rest).length > 0) parts.push(<Output key="rest" label={parts.length > 0 ? 'Other fields' : 'Result'} text={JSON.stringify(rest, null, 2)} />);
  const artifacts = action.artifacts ?? [];
  return (
    <div className="flex flex-col gap-3">
      {facts.length > 0 ? <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">{facts}</dl> : null}
      {action.error ? (
        <p role="alert" className="whitespace-pre-wrap rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {action.error}
        </p>
      ) : null}
      {parts}
      {parts.length === 0 && !action.error ? <p className="text-sm text-slate-600">No details found</p> : null}
      {artifacts.length > 0 ? (
        <section aria-label="Artifacts" className="flex flex-col gap-1">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Artifacts</h4>
          <ul className="flex flex-col gap-1 text-sm">
            {artifacts.map((artifact) => (
              <li key={artifact.id}>
                <a href={artifactDownloadPath(artifact.id)} download={artifact.filename ?? undefined} className="inline-flex items-center gap-1.5 text-blue-700 hover:underline">
                  <Download className="size-3.5" aria-hidden="true" />
                  {artifact.filename || artifact.path || artifact.id}
                </a>
                {artifact.size !== null && artifact.size !== undefined ? <span className="ml-2 text-xs text-slate-500">{formatBytes(artifact.size)}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
