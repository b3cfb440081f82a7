import { Copy, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useMemo, useRef, useState, useCallback } from 'react';
import { formatPath } from '@web/features/canaries/model/document';
import { lineOf } from '@web/features/canaries/editor/code-tab';
import { ProblemsList } from '@web/features/canaries/editor/problems-list';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { copyToClipboard } from '@web/lib/clipboard';
import { Button } from '@web/ui/primitives/button';
import { Field } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import type { AddItem } from '../catalog';
import { useChart, type ChartAnswer } from '../queries';
import {
  asSchema,
  defaultValues,
  FLUX_WARNING,
  fluxYaml,
  GITOPS_DEFAULT_NAMESPACE,
  helmCommands,
  namespaceProblem,
  parseValues,
  valueProblems,
  valuesToYaml,
  type Values,
} from './model';
import { SchemaForm } from './schema-form';

const CodeEditor = lazy(() => import('@web/features/canaries/editor/code-editor'));

/** The GitOps wizard of one Helm-chart integration (spec §2 "The GitOps form", §7, §9). */
export function GitopsWizard({ item }: { item: AddItem }) {
  const chart = useChart(item.chart);
  if (chart.isLoading) return <Loading />;
  if (!chart.data) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {chart.error?.message ?? `The chart of ${item.label} could not be loaded`}
      </p>
    );
  }
  return <WizardBody key={`${chart.data.name}@${chart.data.chart.version}`} chart={chart.data} />;
}

type PreviewTab = 'flux' | 'helm';

function WizardBody({ chart }: { chart: ChartAnswer }) {
  const schema = useMemo(() => asSchema(chart.schema), [chart.schema]);
  const [namespace, setNamespace] = useState(GITOPS_DEFAULT_NAMESPACE);
  const [values, setValues] = useState<Values>(() => defaultValues(schema));
  const [text, setText] = useState(() => valuesToYaml(defaultValues(schema)));
  const [tab, setTab] = useState<PreviewTab>('flux');
  const goTo = useRef<((offset: number) => void) | null>(null);
  const onReady = useCallback((move: (offset: number) => void) => {
    goTo.current = move;
  }, []);

  const parsed = useMemo(() => parseValues(text, schema), [text, schema]);
  const formProblems = useMemo(() => new Map(valueProblems(values, schema).map((problem) => [formatPath(problem.path), problem.message])), [values, schema]);
  const nsProblem = namespaceProblem(namespace);
  const ref = { name: chart.chart.name, version: chart.chart.version, repository: chart.repository };
  const ns = namespace.trim() || GITOPS_DEFAULT_NAMESPACE;
  const flux = fluxYaml(ref, ns, values);
  const helm = helmCommands(ref, ns, values);
  const invalid = parsed.diagnostics.length > 0 || nsProblem !== undefined;

  const fromForm = (next: Values) => {
    setValues(next);
    setText(valuesToYaml(next));
  };
  const fromText = (next: string) => {
    setText(next);
    const read = parseValues(next, schema);
    if (read.values) setValues(read.values);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm text-slate-600">
        <span className="font-medium text-slate-900">
          {chart.chart.name} {chart.chart.version}
        </span>
        {chart.chart.description ? <span>{chart.chart.description}</span> : null}
        <span className="text-xs">{chart.source === 'registry' ? `from ${chart.registry ?? 'the chart registry'}` : 'shipped with this console'}</span>
      </div>
      {chart.note ? (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {chart.note}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-label="Chart values" className="flex min-w-0 flex-col gap-3">
          <Field label="Namespace" markRequired value={namespace} onChange={(event) => setNamespace(event.target.value)} {...(nsProblem ? { error: nsProblem } : { hint: 'Where the HelmRelease and the chart\'s resources go' })} />
          <SchemaForm schema={schema} values={values} onChange={fromForm} problems={formProblems} />
        </section>
        <section aria-label="Values editor" className="flex min-w-0 flex-col gap-2">
          <h3 className="text-sm font-semibold text-slate-800">Values</h3>
          <p className="text-xs text-slate-500">The chart's values as YAML, checked against its schema; the form and this editor stay in step.</p>
          <Suspense fallback={<Loading text="loading editor..." />}>
            <CodeEditor value={text} onChange={fromText} diagnostics={parsed.diagnostics} readOnly={false} label="Values YAML" onReady={onReady} />
          </Suspense>
          <ProblemsList
            title="Problems"
            problems={parsed.diagnostics.map((diagnostic) => ({
              severity: diagnostic.severity,
              message: diagnostic.message,
              line: lineOf(text, diagnostic.from),
              onSelect: () => goTo.current?.(diagnostic.from),
            }))}
          />
        </section>
      </div>
      <section aria-label="Preview" className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold text-slate-800">Preview</h3>
        {invalid ? <p className="text-xs text-red-600">Fix the problems above: the preview shows the last valid values.</p> : null}
        <TabBar label="Install with" tabs={[{ id: 'flux', label: 'Flux' }, { id: 'helm', label: 'Helm CLI' }]} value={tab} onValueChange={(next) => setTab(next === 'helm' ? 'helm' : 'flux')}>
          <Preview text={tab === 'flux' ? flux : helm} label={tab === 'flux' ? 'Flux manifests' : 'Helm commands'} />
        </TabBar>
      </section>
    </div>
  );
}

function Preview({ text, label }: { text: string; label: string }) {
  return (
    <div className="flex flex-col gap-2">
      <p role="note" className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
        {FLUX_WARNING}
      </p>
      <div className="relative">
        <Button size="sm" className="absolute right-2 top-2" onClick={() => void copyToClipboard(text)} aria-label={`Copy ${label}`}>
          <Copy className="size-3.5" aria-hidden="true" />
          Copy
        </Button>
        <pre aria-label={label} className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 pr-20 font-mono text-xs text-slate-800">
          {text}
        </pre>
      </div>
    </div>
  );
}
