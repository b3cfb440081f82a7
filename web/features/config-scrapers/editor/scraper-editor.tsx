import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { CodeTab } from '@web/features/canaries/editor/code-tab';
import { ProblemsList, type ListedProblem } from '@web/features/canaries/editor/problems-list';
import { TypePicker } from '@web/features/canaries/editor/type-picker';
import { codeDiagnostics } from '@web/features/canaries/model/diagnostics';
import { immutableProblems } from '@web/features/canaries/model/document';
import { serverProblemsOf } from '@web/features/canaries/model/problems';
import { FormActions } from '@web/features/settings/resources/form-actions';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { Loading } from '@web/ui/primitives/loading';
import { documentToWrite, parseScraperYaml, rowToDocument, SCRAPE_CONFIG_YAML, type ScraperRowLike, type ScraperWrite } from '../model/document';
import { formToDocument, scraperFormSchema, type ScraperFormValues } from '../model/form-values';
import { formTargetOf, targetPath } from '../model/problems';
import type { ScraperTypeInfo } from '../model/scraper-types';
import { useScraperSchema, useScraperValidation } from '../queries';
import { initialEditorState, syncedCode, syncedForm, type EditorStart } from './editor-state';
import { ScraperForm } from './scraper-form';

export const EDITOR_MODES = ['form', 'code'] as const;
export type EditorMode = (typeof EDITOR_MODES)[number];
/** `?type=yaml`: a new scraper started from YAML rather than from a type card. */
export const YAML_START = 'yaml';

export interface ScraperEditorProps {
  /** The scraper being edited, or null for a new one. */
  row: ScraperRowLike | null;
  /** Linked scrapers and people without write access see the spec without a way to change it. */
  readOnly: boolean;
  saving: boolean;
  /** The last failed save (a 400 names each problem's path, shown in place); null otherwise. */
  saveError: unknown;
  onSubmit: (write: ScraperWrite) => void;
  onBack: () => void;
  /** Asks for the delete confirmation; undefined for a new scraper or without delete access. */
  onDelete: (() => void) | undefined;
}

/**
 * The scraper editor (spec §2 "Resource spec editor", "Scraper editor by type"), built as the health
 * check editor is: for a new scraper a grid of the scraper types this server runs, then a form with Form
 * and Code tabs that stay in step. The mode and the chosen type are in the URL (?mode=code, ?type=file).
 */
export function ScraperEditor(props: ScraperEditorProps) {
  const schema = useScraperSchema();
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const mode = pickOption(read.mode, EDITOR_MODES, 'form');
  const setMode = (next: EditorMode) => setParams((current) => patchSearchParams(current, { mode: next }, { mode: 'form' }));
  if (schema.isLoading) return <Loading />;
  if (!schema.data) return <p role="alert">{schema.error?.message ?? 'The scraper types could not be loaded'}</p>;
  const known = schema.data.types;
  const start: EditorStart | undefined = props.row
    ? { kind: 'row', row: props.row }
    : read.type === YAML_START || (read.type === undefined && mode === 'code')
      ? { kind: 'yaml' }
      : known.some((type) => type.type === read.type)
        ? { kind: 'type', type: read.type ?? '' }
        : undefined;
  if (!start) {
    return (
      <TypePicker
        types={known}
        heading="Choose the type of scraper"
        empty={{ title: 'No scraper types', description: 'This server runs no scraper types; write the ScrapeConfig in YAML instead.' }}
        onPick={(type) => setParams((current) => patchSearchParams(current, { type }))}
        onCode={() => setParams((current) => patchSearchParams(current, { type: YAML_START, mode: 'code' }))}
        onBack={props.onBack}
      />
    );
  }
  return <ScraperEditorBody key={start.kind === 'type' ? start.type : start.kind} {...props} types={known} jsonSchema={schema.data.schema} start={start} mode={mode} setMode={setMode} />;
}

interface BodyProps extends ScraperEditorProps {
  types: readonly ScraperTypeInfo[];
  jsonSchema: NonNullable<ReturnType<typeof useScraperSchema>['data']>['schema'];
  start: EditorStart;
  mode: EditorMode;
  setMode: (mode: EditorMode) => void;
}

function unique(problems: ListedProblem[]): ListedProblem[] {
  return problems.filter((problem, index) => problems.findIndex((other) => other.message === problem.message) === index);
}

function ScraperEditorBody({ row, readOnly, saving, saveError, onSubmit, onBack, onDelete, types, jsonSchema, start, mode, setMode }: BodyProps) {
  const typeNames = useMemo(() => types.map((type) => type.type), [types]);
  const [initial] = useState(() => initialEditorState(start, typeNames));
  const form = useForm<ScraperFormValues>({ resolver: zodResolver(scraperFormSchema), mode: 'onTouched', defaultValues: initial.values });
  const [code, setCode] = useState(initial.code);
  // After Code → Form with YAML the form cannot show, the form stays hidden and the code stays the truth.
  const [formBlocked, setFormBlocked] = useState(false);
  const [codeAttempted, setCodeAttempted] = useState(false);
  // The text of the last save from Code: its refusal is marked in the text until the text changes.
  const [submittedCode, setSubmittedCode] = useState<string | null>(null);
  const original = useMemo(() => (row ? rowToDocument(row) : null), [row]);
  const description = row?.description ?? null;
  const parsed = useMemo(() => parseScraperYaml(code), [code]);
  const codeBlocked = !parsed.doc || immutableProblems(parsed.doc, original, SCRAPE_CONFIG_YAML.noun).length > 0;
  const codeSide = mode === 'code' || formBlocked;
  const values = form.watch();
  const doc = codeSide ? parsed.doc : formToDocument(values);
  const validation = useScraperValidation(doc ? { namespace: doc.namespace, spec: doc.spec } : null);
  const saveProblems = useMemo(() => serverProblemsOf(saveError), [saveError]);

  // Form and Code stay in step: each side takes the other's document when the tab changes.
  const previousMode = useRef(mode);
  useEffect(() => {
    if (previousMode.current === mode) return;
    previousMode.current = mode;
    if (mode === 'code') {
      if (formBlocked) return;
      const next = syncedCode(code, form.getValues(), typeNames);
      if (next !== code) setCode(next);
      return;
    }
    setFormBlocked(codeBlocked);
    if (codeBlocked || !parsed.doc) return;
    const next = syncedForm(parsed.doc, form.getValues(), typeNames);
    if (next) form.reset(next, { keepDefaultValues: true });
  });

  // A refused save (400) names each problem's path: in the form, each goes to its field.
  useEffect(() => {
    if (mode !== 'form') return;
    const entries = form.getValues().entries;
    for (const problem of saveProblems) {
      const target = formTargetOf(problem.path, entries);
      if (target) form.setError(targetPath(target), { type: 'server', message: problem.message });
    }
    // Only a new refusal places messages.
  }, [saveProblems]);

  const submit = () => {
    if (readOnly) return;
    if (!codeSide) {
      setSubmittedCode(null);
      void form.handleSubmit((valid) => onSubmit(documentToWrite(formToDocument(valid), description)))();
      return;
    }
    if (!parsed.doc || codeBlocked || parsed.problems.length > 0) {
      setCodeAttempted(true);
      return;
    }
    setSubmittedCode(code);
    onSubmit(documentToWrite(parsed.doc, description));
  };

  // What the server said, placed: on fields in the form (once touched), at lines in the code.
  const live = new Map<string, string>();
  const listed: ListedProblem[] = [];
  const findings = validation.current && validation.data ? validation.data : undefined;
  if (mode === 'form') {
    for (const problem of saveProblems) if (!formTargetOf(problem.path, values.entries)) listed.push({ severity: 'error', message: `${problem.path}: ${problem.message}` });
    for (const problem of findings?.errors ?? []) {
      const target = formTargetOf(problem.path, values.entries);
      if (target) live.set(targetPath(target), problem.message);
      else listed.push({ severity: 'error', message: `${problem.path}: ${problem.message}` });
    }
    for (const warning of findings?.warnings ?? []) listed.push({ severity: 'warning', message: warning });
  }
  const savedThisCode = submittedCode === code;
  const diagnostics =
    mode === 'code'
      ? codeDiagnostics({
          parsed,
          schema: jsonSchema,
          original,
          noun: SCRAPE_CONFIG_YAML.noun,
          server: findings || savedThisCode ? { errors: [...(savedThisCode ? saveProblems : []), ...(findings?.errors ?? [])], warnings: findings?.warnings ?? [] } : undefined,
        })
      : [];

  return (
    <FormProvider {...form}>
      <form
        noValidate
        className="flex max-w-5xl flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TabBar label="Editor" tabs={[{ id: 'form', label: 'Form' }, { id: 'code', label: 'Code' }]} value={mode} onValueChange={(next) => setMode(next === 'code' ? 'code' : 'form')}>
          {mode === 'code' ? (
            <CodeTab value={code} onChange={setCode} diagnostics={diagnostics} readOnly={readOnly} kind={SCRAPE_CONFIG_YAML.kind} />
          ) : formBlocked ? (
            <div role="note" className="flex max-w-2xl flex-col items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              <p>The YAML in Code has problems, so the form cannot show it. Fix them in Code first.</p>
              <Button size="sm" onClick={() => setMode('code')}>
                Open Code
              </Button>
            </div>
          ) : (
            <div className="flex flex-col gap-4">
              <ScraperForm types={types} existing={row !== null} readOnly={readOnly} live={live} />
              <ProblemsList title="Problems the server found" problems={unique(listed)} />
            </div>
          )}
        </TabBar>
        {/* Live checking is a help, not a gate: when it fails, say so and let the save decide. */}
        {validation.error ? <p className="text-xs text-amber-700">The server could not check the spec as you type: {validation.error.message}</p> : null}
        {saveProblems.length > 0 && !saving ? (
          <p role="alert" className="text-sm text-red-600">
            Not saved: the server found problems, shown {codeSide ? 'in the YAML' : 'on the fields and listed above'}.
          </p>
        ) : null}
        {codeAttempted && codeSide && (codeBlocked || parsed.problems.length > 0) ? (
          <p role="alert" className="text-sm text-red-600">
            Fix the problems marked in the YAML before saving.
          </p>
        ) : null}
        <FormActions onBack={onBack} existing={row !== null} readOnly={readOnly} saving={saving} onDelete={onDelete} />
      </form>
    </FormProvider>
  );
}
