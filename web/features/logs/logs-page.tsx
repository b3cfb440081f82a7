import { LOGS_DEFAULT_RANGE, LOGS_LIMIT_DEFAULT, LOGS_RANGES } from '@common/logs';
import { useQueryClient } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { AttachEvidenceButton } from '@web/features/incidents/link/attach-evidence';
import { useUrlParams } from '@web/lib/use-url-params';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { Badge, type BadgeTone } from '@web/ui/primitives/badge';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { DateTime } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { FilterSelect } from '@web/ui/filter-select';
import { SearchBox } from '@web/ui/search-box';
import { relativeDisplay, relativeSpanWords } from '@web/ui/time-range';
import { logKeys, useLogSearch, useLogSources, type LogAnswer, type LogLine, type LogSearchRequest } from './api';

const LIMITS = ['100', '500', '1000', '5000'] as const;
const URL_DEFAULTS = { range: LOGS_DEFAULT_RANGE, limit: String(LOGS_LIMIT_DEFAULT) };

const LEVEL_TONES: Record<string, BadgeTone> = { error: 'danger', fatal: 'danger', critical: 'danger', warn: 'warning', info: 'info' };

/** A source's select value: `backend:<name>` or `component:<id>`. */
type Source = { kind: 'backend'; name: string } | { kind: 'component'; id: string };

function parseSource(value: string | undefined): Source | undefined {
  if (value?.startsWith('backend:')) return { kind: 'backend', name: value.slice('backend:'.length) };
  if (value?.startsWith('component:')) return { kind: 'component', id: value.slice('component:'.length) };
  return undefined;
}

/** What an attached excerpt keeps: each line as it reads on screen, plus where and how it was found. */
function excerpt(lines: readonly LogLine[], answer: LogAnswer, query: string, sourceName: string) {
  return {
    lines: [...lines].reverse().map((line) => `${line.time} ${line.level && !line.message.toLowerCase().startsWith(line.level) ? `${line.level.toUpperCase()} ` : ''}${line.message}`),
    source: sourceName,
    backends: answer.backends,
    files: [...new Set(lines.map((line) => line.source))],
    query,
    start: answer.start,
    end: answer.end,
  };
}

/** Spec §2 /logs: search a backend's or a component's logs, newest first; chosen lines attach to an incident. */
export default function LogsPage() {
  const [params, setParams] = useUrlParams();
  const p = readSearchParams(params);
  const client = useQueryClient();
  const access = useAccess();
  const sources = useLogSources();
  const range = pickOption(p.range, LOGS_RANGES, LOGS_DEFAULT_RANGE);
  const limit = Number(pickOption(p.limit, LIMITS, String(LOGS_LIMIT_DEFAULT) as (typeof LIMITS)[number]));
  const query = p.query ?? '';
  // Without a choice in the URL, the first backend is searched.
  const firstBackend = sources.data?.backends[0];
  const source = parseSource(p.source) ?? (firstBackend ? ({ kind: 'backend', name: firstBackend.name } as const) : undefined);
  const sourceValue = source ? (source.kind === 'backend' ? `backend:${source.name}` : `component:${source.id}`) : '';
  const sourceName = source?.kind === 'backend' ? source.name : (sources.data?.components.find((component) => component.id === source?.id)?.name ?? source?.id ?? '');

  // Keyed by the source's select value: the parsed source is a fresh object each render.
  const request = useMemo<LogSearchRequest | undefined>(() => {
    const chosen = parseSource(sourceValue);
    if (!chosen) return undefined;
    return { ...(chosen.kind === 'backend' ? { name: chosen.name } : { id: chosen.id }), query, start: range, limit };
  }, [sourceValue, query, range, limit]);
  const search = useLogSearch(request);
  const answer = search.data;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setSelected(new Set()), [request]);

  const change = (patch: Record<string, string | undefined>) => setParams((current) => patchSearchParams(current, patch, URL_DEFAULTS));
  const lines = answer?.results ?? [];
  const chosen = lines.filter((line) => selected.has(line.id));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = lines.length > 0 && chosen.length === lines.length;
  const canAddBackend = access.can('logging_backends', 'write');

  const body = (() => {
    if (sources.isPending) return <Loading />;
    if (sources.error) {
      return (
        <p role="alert" className="text-sm text-red-600">
          {sources.error.message}
        </p>
      );
    }
    if (sources.data.backends.length === 0) {
      return (
        <EmptyState
          icon={<ScrollText className="size-5" aria-hidden="true" />}
          title="No log backends yet"
          description="A log backend names log files on the console's server (paths or globs) and the topology components whose logs they hold. Add one in Settings, or apply a LogBackend resource."
          action={
            canAddBackend ? (
              <Link to="/settings/logging_backends/new" className={cn(buttonBase, 'h-9 bg-blue-600 px-4 text-sm text-white hover:bg-blue-700')}>
                Add a log backend
              </Link>
            ) : undefined
          }
        />
      );
    }
    if (search.isPending) return <Loading />;
    if (search.error) {
      return (
        <p role="alert" className="text-sm text-red-600">
          {search.error.message}
        </p>
      );
    }
    if (lines.length === 0) {
      return <EmptyState title="No log lines found" description={query ? `No line in ${relativeSpanWords(range)} contains "${query}".` : `Nothing was written in ${relativeSpanWords(range)}.`} />;
    }
    return (
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table aria-label="Log lines" className="w-full table-fixed text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-medium text-slate-600">
            <tr>
              <th scope="col" className="w-10 px-3 py-2">
                <input
                  type="checkbox"
                  aria-label="Select all lines"
                  checked={allChosen}
                  onChange={() => setSelected(allChosen ? new Set() : new Set(lines.map((line) => line.id)))}
                />
              </th>
              <th scope="col" className="w-48 px-2 py-2">Time</th>
              <th scope="col" className="w-20 px-2 py-2">Level</th>
              <th scope="col" className="px-2 py-2">Message</th>
              <th scope="col" className="w-40 px-2 py-2">File</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.id} className={cn('border-b border-slate-100 align-top last:border-0', selected.has(line.id) && 'bg-blue-50')}>
                <td className="px-3 py-1.5">
                  <input type="checkbox" aria-label={`Select line ${line.message.slice(0, 60)}`} checked={selected.has(line.id)} onChange={() => toggle(line.id)} />
                </td>
                <td className="whitespace-nowrap px-2 py-1.5 text-xs text-slate-600">
                  <DateTime value={line.time} />
                </td>
                <td className="px-2 py-1.5">{line.level ? <Badge tone={LEVEL_TONES[line.level] ?? 'neutral'}>{line.level}</Badge> : null}</td>
                <td className="whitespace-pre-wrap break-all px-2 py-1.5 font-mono text-xs text-slate-900">{line.message}</td>
                <td className="truncate px-2 py-1.5 text-xs text-slate-500" title={line.source}>
                  {line.source.split('/').pop()}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  })();

  return (
    <Page title="Logs" onRefresh={() => void client.invalidateQueries({ queryKey: logKeys.all })} refreshing={search.isFetching || sources.isFetching}>
      <div className="flex flex-col gap-3">
        {sources.data && sources.data.backends.length > 0 ? (
          <div role="search" aria-label="Log search" className="flex flex-wrap items-center gap-3">
            <FilterSelect
              label="Source"
              value={sourceValue}
              onChange={(value) => change({ source: value })}
              className="max-w-64"
              // A component from a link that no backend selects any more still shows what is searched.
              options={source?.kind === 'component' && !sources.data.components.some((component) => component.id === source.id) ? [{ value: sourceValue, label: source.id }] : []}
              groups={[
                { label: 'Backends', options: sources.data.backends.map((backend) => ({ value: `backend:${backend.name}`, label: backend.name })) },
                {
                  label: 'Components',
                  options: sources.data.components.map((component) => ({ value: `component:${component.id}`, label: component.type ? `${component.name} (${component.type})` : component.name })),
                },
              ]}
            />
            <SearchBox label="Search log lines" value={query} onCommit={(text) => change({ query: text || undefined })} placeholder="Text the line contains" />
            <FilterSelect label="Range" value={range} onChange={(value) => change({ range: value })} options={LOGS_RANGES.map((value) => ({ value, label: relativeDisplay(value) }))} />
            <FilterSelect label="Lines" value={String(limit)} onChange={(value) => change({ limit: value })} options={LIMITS.map((value) => ({ value, label: value }))} />
          </div>
        ) : null}
        {answer && lines.length > 0 ? (
          <div className="flex flex-wrap items-center gap-3">
            <span role="status" className="text-sm text-slate-600">
              {answer.total > lines.length ? `Newest ${lines.length} of ${answer.total} lines` : `${lines.length} ${lines.length === 1 ? 'line' : 'lines'}`} from {answer.files}{' '}
              {answer.files === 1 ? 'file' : 'files'}
            </span>
            {chosen.length > 0 ? (
              <>
                <AttachEvidenceButton
                  label={`Attach ${chosen.length} ${chosen.length === 1 ? 'line' : 'lines'} as Evidence`}
                  target={{
                    type: 'log',
                    summary: `${chosen.length} ${chosen.length === 1 ? 'log line' : 'log lines'} of ${sourceName}`,
                    ...(source?.kind === 'component' ? { component_id: source.id } : {}),
                    evidence: excerpt(chosen, answer, query, sourceName),
                  }}
                />
                <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
                  Clear selection
                </Button>
              </>
            ) : (
              <span className="text-xs text-slate-500">Select lines to attach them to an incident.</span>
            )}
          </div>
        ) : null}
        {answer && answer.truncated.length > 0 ? (
          <ul aria-label="Not read" className="text-xs text-amber-700">
            {answer.truncated.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
        {body}
      </div>
    </Page>
  );
}
