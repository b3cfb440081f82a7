import { ArrowLeft, FileDown, Loader2 } from 'lucide-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Link, useParams } from 'react-router';
import { HealthBar } from '@web/features/catalog/list/health-bar';
import { ViewContent } from '@web/features/views/view-content';
import { Page } from '@web/app/layout/page';
import { toast } from '@web/lib/toast';
import { useDisplayPreferences } from '@web/lib/preferences';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { resolvedTimeZone, useFormatDate } from '@web/ui/primitives/date-time';
import { Loading } from '@web/ui/primitives/loading';
import { relativeRange, resolveTimeRange, TimeRangePicker, timeRangeFromParams, writeTimeRangeParams, type TimeRangeValue } from '@web/ui/time-range';
import { useApplicationReport, type ApplicationReport } from './api';
import { APPLICATIONS_PATH, reportApiPath } from './paths';
import { ACCESS_COLUMNS, CHANGE_COLUMNS, CONFIG_COLUMNS, INCIDENT_COLUMNS, LOGIN_COLUMNS, REVIEW_COLUMNS, ReportTable } from './report-tables';

const DEFAULT_RANGE = relativeRange('30d');

function Section({ id, title, count, children }: { id: string; title: string; count?: number; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 break-inside-avoid-page">
      <h2 id={`${id}-title`} className="flex items-baseline gap-2 text-base font-semibold text-slate-900">
        {title}
        {count !== undefined ? <span className="text-sm font-normal text-slate-500">{count}</span> : null}
      </h2>
      {children}
    </section>
  );
}

/** A file from the PDF endpoint, saved under the name the server gives it. */
async function downloadPdf(url: string, fallbackName: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : `HTTP ${response.status}: ${response.statusText}`;
    throw new Error(message);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

function ExportPdfButton({ report }: { report: ApplicationReport }) {
  const [busy, setBusy] = useState(false);
  const { dateFormat, timeZone } = useDisplayPreferences();
  const exportPdf = async () => {
    setBusy(true);
    try {
      // The server prints in its own browser: it is told the person's format and zone ('Browser' is this browser's zone).
      const display = { dateFormat, timeZone: resolvedTimeZone(timeZone) };
      await downloadPdf(reportApiPath(report.namespace, report.name, report.range, true, display), `${report.name}.pdf`);
    } catch (error) {
      toast.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="sm" onClick={() => void exportPdf()} disabled={busy} aria-busy={busy}>
      {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <FileDown className="size-4" aria-hidden="true" />}
      {busy ? 'Rendering PDF…' : 'Export PDF'}
    </Button>
  );
}

/** A moment of the report in the person's format; an age ('5m', the short format) would go stale on paper, so it reads as a timestamp. */
function useReportDate(): (value: string | Date) => string {
  const format = useFormatDate();
  const { dateFormat } = useDisplayPreferences();
  return (value) => format(value, dateFormat === 'short' ? 'timestamp' : dateFormat);
}

function Overview({ report }: { report: ApplicationReport }) {
  const formatDate = useReportDate();
  return (
    <Section id="overview" title="Overview">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm md:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500">Name</dt>
          <dd className="font-medium text-slate-900">
            {report.namespace}/{report.name}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Type</dt>
          <dd className="text-slate-900">{report.type || '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Period</dt>
          <dd className="text-slate-900">
            {formatDate(report.range.from)} – {formatDate(report.range.to)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Health</dt>
          <dd>
            <HealthBar counts={report.health} />
          </dd>
        </div>
        {report.properties.map((property, index) => (
          <div key={`${property.name ?? property.label ?? ''}-${index}`} title={property.tooltip}>
            <dt className="text-xs text-slate-500">{property.label ?? property.name}</dt>
            <dd className="text-slate-900">{property.text ?? (property.value !== undefined ? `${property.value}${property.unit ? ` ${property.unit}` : ''}` : '—')}</dd>
          </div>
        ))}
      </dl>
      {report.description ? <p className="text-sm text-slate-600">{report.description}</p> : null}
    </Section>
  );
}

function ReportBody({ report }: { report: ApplicationReport }) {
  return (
    <div className="flex flex-col gap-6">
      <Overview report={report} />
      <Section id="environments" title="Environments" count={report.environments.length}>
        {report.environments.length === 0 ? <p className="text-sm text-slate-500">No environments are mapped (spec.mapping.environments).</p> : null}
        {report.environments.map((environment) => (
          <div key={environment.name} className="flex flex-col gap-1.5" aria-label={`Environment ${environment.name}`} role="group">
            <h3 className="flex items-center gap-3 text-sm font-semibold text-slate-800">
              {environment.name}
              {environment.purpose ? <span className="text-xs font-normal text-slate-500">{environment.purpose}</span> : null}
              <HealthBar counts={environment.health} />
            </h3>
            <ReportTable label={`Configs of ${environment.name}`} rows={environment.configs} columns={CONFIG_COLUMNS} empty="No config items match this environment's selectors." />
          </div>
        ))}
        {report.datasources.length > 0 ? (
          <div className="flex flex-col gap-1.5">
            <h3 className="text-sm font-semibold text-slate-800">Data sources</h3>
            <ReportTable label="Data sources" rows={report.datasources} columns={CONFIG_COLUMNS} empty="" />
          </div>
        ) : null}
      </Section>
      <Section id="access" title="Access">
        <h3 className="text-sm font-semibold text-slate-800">Who has access</h3>
        <ReportTable label="Who has access" rows={report.access} columns={ACCESS_COLUMNS} empty="No one holds access to these config items (config_access)." />
        <h3 className="text-sm font-semibold text-slate-800">Logins</h3>
        <ReportTable label="Logins" rows={report.logins} columns={LOGIN_COLUMNS} empty="No logins in this period." />
      </Section>
      <Section id="reviews" title="Access reviews" count={report.accessReviews.length}>
        <ReportTable label="Access reviews" rows={report.accessReviews} columns={REVIEW_COLUMNS} empty="No access reviews in this period." />
      </Section>
      <Section id="changes" title="Changes" count={report.changes.length}>
        <ReportTable label="Changes" rows={report.changes} columns={CHANGE_COLUMNS} empty="No changes in this period." />
      </Section>
      <Section id="incidents" title="Incidents" count={report.incidents.length}>
        <ReportTable label="Incidents" rows={report.incidents} columns={INCIDENT_COLUMNS} empty="No incidents in this period." />
      </Section>
      {report.sections.map((section) => (
        <Section key={`${section.namespace}/${section.name}/${section.title}`} id={`section-${section.namespace}-${section.name}`} title={section.title}>
          {section.id ? <ViewContent viewId={section.id} embedded /> : <p role="alert" className="text-sm text-red-600">{section.error}</p>}
        </Section>
      ))}
      {report.truncated.length > 0 ? <p className="text-xs text-slate-500">Only the newest 500 rows of {report.truncated.join(', ')} are shown.</p> : null}
      {report.warnings.length > 0 ? (
        <details className="text-xs text-slate-500 print:hidden">
          <summary>{report.warnings.length} spec warnings</summary>
          <ul className="list-disc pl-5">
            {report.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/** Print mode (`?print=1`, the PDF export): the report alone, over the shell, which is hidden. */
function PrintLayout({ state, children }: { state: 'loading' | 'ready' | 'error'; children: ReactNode }) {
  useEffect(() => {
    const style = document.createElement('style');
    style.textContent = 'body > #root { display: none !important; }';
    document.head.append(style);
    return () => style.remove();
  }, []);
  return createPortal(
    <main data-report-state={state} className="mx-auto flex max-w-5xl flex-col gap-4 bg-white p-6">
      {children}
    </main>,
    document.body,
  );
}

/** Spec §2 /applications/{namespace}/{name}: the audit report over a time range, with the PDF export. */
export default function ApplicationReportPage() {
  const { namespace = '', name = '' } = useParams();
  const [params, setParams] = useUrlParams();
  const print = params.get('print') === '1';
  const rangeKey = new URLSearchParams([...params].filter(([key]) => key === 'range' || key === 'from' || key === 'to')).toString();
  // Read again only when the range parameters change (params changes identity on every other edit too).
  const range: TimeRangeValue = useMemo(() => timeRangeFromParams(new URLSearchParams(rangeKey), DEFAULT_RANGE), [rangeKey]);
  // Resolved once per range: a relative range is read as of when it was picked, so the query key holds still.
  const resolved = useMemo(() => {
    const value = resolveTimeRange(range) ?? resolveTimeRange(DEFAULT_RANGE);
    const to = value?.to ?? new Date();
    return { from: (value?.from ?? new Date(to.getTime() - 30 * 86_400_000)).toISOString(), to: to.toISOString() };
  }, [range]);
  const report = useApplicationReport(namespace, name, resolved);
  const formatDate = useReportDate();
  const [generatedAt] = useState(() => new Date());
  const state = report.error ? 'error' : report.data ? 'ready' : 'loading';

  const content = (
    <>
      {report.error ? (
        <p role="alert" className="text-sm text-red-600">
          {report.error.message}
        </p>
      ) : null}
      {report.isPending ? <Loading /> : null}
      {report.data ? <ReportBody report={report.data} /> : null}
    </>
  );

  if (print) {
    return (
      <PrintLayout state={state}>
        <header className="flex flex-col gap-1 border-b border-slate-200 pb-3">
          <h1 className="text-xl font-semibold text-slate-900">Application report: {name}</h1>
          <p className="text-xs text-slate-500">Generated {formatDate(generatedAt)}</p>
        </header>
        {content}
      </PrintLayout>
    );
  }

  return (
    <Page
      title={`Application: ${name}`}
      extra={
        <div className="flex items-center gap-2">
          <Link to={APPLICATIONS_PATH} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
            <ArrowLeft className="size-4" aria-hidden="true" />
            Applications
          </Link>
          <TimeRangePicker value={range} onChange={(next: TimeRangeValue) => setParams((current) => writeTimeRangeParams(current, next))} />
          {report.data ? <ExportPdfButton report={report.data} /> : null}
        </div>
      }
      onRefresh={() => void report.refetch()}
      refreshing={report.isFetching}
    >
      <div data-report-state={state}>{content}</div>
    </Page>
  );
}
