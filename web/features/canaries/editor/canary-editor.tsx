import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { ResourceEditorProps } from '@web/features/settings/resources/registry';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { FormActions } from '@web/features/settings/resources/form-actions';
import { Loading } from '@web/ui/primitives/loading';
import { codeDiagnostics } from '../model/diagnostics';
import { documentToWrite, immutableProblems, parseCanaryYaml, rowToDocument } from '../model/document';
import { canaryFormSchema, documentToForm, formToDocument, type CanaryFormValues } from '../model/form-values';
import { formTargetOf, serverProblemsOf, targetPath } from '../model/problems';
import { useCanarySchema, useCanaryValidation, useCheckTypes, type CheckTypeInfo } from '../queries';
import { CanaryForm } from './canary-form';
import { CodeTab } from './code-tab';
import { initialEditorState, syncedCode, syncedForm, type EditorStart } from './editor-state';
import { ProblemsList, type ListedProblem } from './problems-list';
import { TypePicker } from './type-picker';

export const EDITOR_MODES = ['form', 'code'] as const;
export type EditorMode = (typeof EDITOR_MODES)[number];
/** `?type=yaml`: a new canary started from YAML rather than from a type card. */
export const YAML_START = 'yaml';

/**
 * The health check editor (spec §2 "Resource spec editor"): for a new canary a grid of the check types
 * this server runs, then a form with Form and Code tabs that stay in step. The mode and the chosen type
 * are in the URL (?mode=code, ?type=http).
 */
export default function CanaryEditor(props: ResourceEditorProps) {
  const types = useCheckTypes();
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const mode = pickOption(read.mode, EDITOR_MODES, 'form');
  const setMode = (next: EditorMode) => setParams((current) => patchSearchParams(current, { mode: next }, { mode: 'form' }));
  if (types.isLoading) return <Loading />;
  if (!types.data) return <p role="alert">{types.error?.message ?? 'The check types could not be loaded'}</p>;
  const known = types.data;
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
        onPick={(type) => setParams((current) => patchSearchParams(current, { type }))}
        onCode={() => setParams((current) => patchSearchParams(current, { type: YAML_START, mode: 'code' }))}
        onBack={props.onBack}
      />
    );
  }
  return <CanaryEditorBody key={start.kind === 'type' ? start.type : start.kind} {...props} types={known} start={start} mode={mode} setMode={setMode} />;
}

interface BodyProps extends ResourceEditorProps {
  types: readonly CheckTypeInfo[];
  start: EditorStart;
  mode: EditorMode;
  setMode: (mode: EditorMode) => void;
}

function CanaryEditorBody({ row, readOnly, saving, saveError, onSubmit, onBack, onDelete, types, start, mode, setMode }: BodyProps) {
  const typeNames = useMemo(() => types.map((type) => type.type), [types]);
  const pushTypes = useMemo(() => types.filter((type) => type.push).map((type) => type.type), [types]);
  const [initial] = useState(() => initialEditorState(start, typeNames, pushTypes));
  const form = useForm<CanaryFormValues>({ resolver: zodResolver(canaryFormSchema), mode: 'onTouched', defaultValues: initial.values });
  const [code, setCode] = useState(initial.code);
  // After Code → Form with YAML the form cannot show, the form stays hidden and the code stays the truth.
  const [formBlocked, setFormBlocked] = useState(false);
  const [codeAttempted, setCodeAttempted] = useState(false);
  // The text of the last save from Code: its refusal is marked in the text until the text changes.
  const [submittedCode, setSubmittedCode] = useState<string | null>(null);
  const existing = row !== null;
  const original = useMemo(() => (row ? rowToDocument(row) : null), [row]);
  const parsed = useMemo(() => parseCanaryYaml(code), [code]);
  const codeBlocked = !parsed.doc || immutableProblems(parsed.doc, original).length > 0;
  const codeSide = mode === 'code' || formBlocked;
  const values = form.watch();
  const doc = codeSide ? parsed.doc : formToDocument(values, pushTypes);
  const validation = useCanaryValidation(doc ? { namespace: doc.namespace, spec: doc.spec } : null);
  const schema = useCanarySchema(mode === 'code');
  const saveProblems = useMemo(() => serverProblemsOf(saveError), [saveError]);

  // Form and Code stay in step: each side takes the other's document when the tab changes (by a click
  // or by the URL). Typing on either side does not sync, so nothing is rewritten under the cursor.
  const previousMode = useRef(mode);
  useEffect(() => {
    if (previousMode.current === mode) return;
    previousMode.current = mode;
    if (mode === 'code') {
      if (formBlocked) return;
      const next = syncedCode(code, form.getValues(), typeNames, pushTypes);
      if (next !== code) setCode(next);
      return;
    }
    setFormBlocked(codeBlocked);
    if (codeBlocked || !parsed.doc) return;
    const next = syncedForm(parsed.doc, form.getValues(), typeNames, pushTypes);
    if (next) form.reset(next, { keepDefaultValues: true });
  });

  // A refused save (400) names each problem's path: in the form, each goes to its field.
  useEffect(() => {
    if (mode !== 'form') return;
    const checks = form.getValues().checks;
    for (const problem of saveProblems) {
      const target = formTargetOf(problem.path, checks);
      if (target) form.setError(targetPath(target), { type: 'server', message: problem.message });
    }
    // Only a new refusal places messages.
  }, [saveProblems]);

  const submit = () => {
    if (readOnly) return;
    if (!codeSide) {
      setSubmittedCode(null);
      void form.handleSubmit((valid) => onSubmit(documentToWrite(formToDocument(valid, pushTypes))))();
      return;
    }
    if (!parsed.doc || codeBlocked || parsed.problems.length > 0) {
      setCodeAttempted(true);
      return;
    }
    setSubmittedCode(code);
    onSubmit(documentToWrite(parsed.doc));
  };

  // What the server said, placed: on fields in the form (once touched), at lines in the code.
  const live = new Map<string, string>();
  const listed: ListedProblem[] = [];
  const findings = validation.current && validation.data ? validation.data : undefined;
  if (mode === 'form') {
    // A refusal's placed problems are field errors already (above); the rest are listed.
    for (const problem of saveProblems) if (!formTargetOf(problem.path, values.checks)) listed.push({ severity: 'error', message: `${problem.path}: ${problem.message}` });
    for (const problem of findings?.errors ?? []) {
      const target = formTargetOf(problem.path, values.checks);
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
          schema: schema.data,
          original,
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
            <CodeTab value={code} onChange={setCode} diagnostics={diagnostics} readOnly={readOnly} />
          ) : formBlocked ? (
            <div role="note" className="flex max-w-2xl flex-col items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              <p>The YAML in Code has problems, so the form cannot show it. Fix them in Code first.</p>
              <Button size="sm" onClick={() => setMode('code')}>
                Open Code
              </Button>
            </div>
          ) : (
            <div className="flex flex-col gap-4">
              <CanaryForm types={types} existing={existing} readOnly={readOnly} live={live} />
              <ProblemsList title="Problems the server found" problems={listed.filter((problem, index) => listed.findIndex((other) => other.message === problem.message) === index)} />
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
        <FormActions onBack={onBack} existing={Boolean(existing)} readOnly={readOnly} saving={saving} onDelete={onDelete} />
      </form>
    </FormProvider>
  );
}
