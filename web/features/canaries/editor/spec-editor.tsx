import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FormProvider, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { FormActions } from '@web/features/settings/resources/form-actions';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import type { TextDiagnostic } from '../model/diagnostics';
import { immutableProblems, sameDocument, type ParsedYaml, type ResourceDocument } from '../model/document';
import { serverProblemsOf, type ServerProblem } from '../model/problems';
import { CodeTab } from './code-tab';
import { ProblemsList, type ListedProblem } from './problems-list';

/**
 * What the canary editor and the scraper editor share (spec §2 "Resource spec editor"): the mode and the
 * start in the URL, Form and Code kept in step, the server's problems placed on fields or listed, and
 * the frame around the two tabs. Each editor brings its form, its document and its server checks.
 */

export const EDITOR_MODES = ['form', 'code'] as const;
export type EditorMode = (typeof EDITOR_MODES)[number];
/** `?type=yaml`: a new resource started from YAML rather than from a type card. */
export const YAML_START = 'yaml';

/** Where the editor starts: a saved resource, a new one of a type (picked on a card), or YAML. */
export type EditorStart<R> = { kind: 'row'; row: R } | { kind: 'type'; type: string } | { kind: 'yaml' };

/** The editor's mode (?mode=code) and the type asked for (?type=http), with the ways to change them. */
export function useEditorUrl() {
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const mode = pickOption(read.mode, EDITOR_MODES, 'form');
  return {
    mode,
    type: read.type,
    setMode: (next: EditorMode) => setParams((current) => patchSearchParams(current, { mode: next }, { mode: 'form' })),
    pickType: (type: string) => setParams((current) => patchSearchParams(current, { type })),
    startYaml: () => setParams((current) => patchSearchParams(current, { type: YAML_START, mode: 'code' })),
  };
}

/** Where the editor starts, or undefined while a new resource's type is still to be picked. */
export function editorStart<R>(row: R | null, type: string | undefined, mode: EditorMode, known: readonly { type: string }[]): EditorStart<R> | undefined {
  if (row) return { kind: 'row', row };
  if (type === YAML_START || (type === undefined && mode === 'code')) return { kind: 'yaml' };
  return known.some((item) => item.type === type) ? { kind: 'type', type: type ?? '' } : undefined;
}

/** How one editor's form values and its document turn into each other and into YAML. */
export interface FormCodec<V> {
  toForm: (doc: ResourceDocument) => V;
  toDocument: (values: V) => ResourceDocument;
  parse: (code: string) => ParsedYaml;
  toYaml: (doc: ResourceDocument) => string;
}

/**
 * The Code tab's text after the Form tab: unchanged when it already says what the form says (so its
 * comments and layout survive a look at the form), otherwise written anew from the form.
 */
export function syncedCode<V>(codec: FormCodec<V>, code: string, values: V): string {
  const fromForm = codec.toDocument(values);
  const parsed = codec.parse(code).doc;
  // The code's document as the form would write it (secrets as {value}, keys in the form's order…).
  if (parsed && sameDocument(codec.toDocument(codec.toForm(parsed)), fromForm)) return code;
  return codec.toYaml(fromForm);
}

/** The form's values after the Code tab, or undefined when the form already says what the code says (its touched fields stay). */
export function syncedForm<V>(codec: FormCodec<V>, doc: ResourceDocument, values: V): V | undefined {
  const next = codec.toForm(doc);
  return sameDocument(codec.toDocument(next), codec.toDocument(values)) ? undefined : next;
}

/** The form and the code an editor starts with: a saved row's, or a new resource's (`blank`, of the picked type). */
export function initialEditorState<R, V>(
  start: EditorStart<R>,
  codec: FormCodec<V>,
  rowToDocument: (row: R) => ResourceDocument,
  blank: (type: string | undefined) => V,
): { values: V; code: string } {
  if (start.kind === 'row') {
    const doc = rowToDocument(start.row);
    return { values: codec.toForm(doc), code: codec.toYaml(doc) };
  }
  const values = blank(start.kind === 'type' ? start.type : undefined);
  return { values, code: codec.toYaml(codec.toDocument(values)) };
}

export interface SpecEditorOptions<V extends FieldValues> {
  form: UseFormReturn<V>;
  codec: FormCodec<V>;
  initialCode: string;
  mode: EditorMode;
  readOnly: boolean;
  /** The saved resource, whose name and namespace the code may not change; null for a new one. */
  original: ResourceDocument | null;
  /** What a person calls one, in messages ('scraper'); the canary's by default. */
  noun?: string | undefined;
  saveError: unknown;
  /** The form path of a server problem's path, or undefined when the form has no field for it. */
  targetOf: (path: string, values: V) => Path<V> | undefined;
  onSubmit: (doc: ResourceDocument) => void;
}

/**
 * The state of an editor with Form and Code tabs: the code, which side is the truth, the document to check
 * and save, a refused save's problems (placed on their fields in the form) and the submit.
 */
export function useSpecEditor<V extends FieldValues>({ form, codec, initialCode, mode, readOnly, original, noun, saveError, targetOf, onSubmit }: SpecEditorOptions<V>) {
  const [code, setCode] = useState(initialCode);
  // After Code → Form with YAML the form cannot show, the form stays hidden and the code stays the truth.
  const [formBlocked, setFormBlocked] = useState(false);
  const [codeAttempted, setCodeAttempted] = useState(false);
  // The text of the last save from Code: its refusal is marked in the text until the text changes.
  const [submittedCode, setSubmittedCode] = useState<string | null>(null);
  const parsed = useMemo(() => codec.parse(code), [codec, code]);
  const codeBlocked = !parsed.doc || immutableProblems(parsed.doc, original, noun).length > 0;
  const codeSide = mode === 'code' || formBlocked;
  const values = form.watch();
  const doc = codeSide ? parsed.doc : codec.toDocument(values);
  const saveProblems = useMemo(() => serverProblemsOf(saveError), [saveError]);

  // Form and Code stay in step: each side takes the other's document when the tab changes (by a click
  // or by the URL). Typing on either side does not sync, so nothing is rewritten under the cursor.
  const previousMode = useRef(mode);
  useEffect(() => {
    if (previousMode.current === mode) return;
    previousMode.current = mode;
    if (mode === 'code') {
      if (formBlocked) return;
      const next = syncedCode(codec, code, form.getValues());
      if (next !== code) setCode(next);
      return;
    }
    setFormBlocked(codeBlocked);
    if (codeBlocked || !parsed.doc) return;
    const next = syncedForm(codec, parsed.doc, form.getValues());
    if (next) form.reset(next, { keepDefaultValues: true });
  });

  // A refused save (400) names each problem's path: in the form, each goes to its field.
  useEffect(() => {
    if (mode !== 'form') return;
    const current = form.getValues();
    for (const problem of saveProblems) {
      const target = targetOf(problem.path, current);
      if (target) form.setError(target, { type: 'server', message: problem.message });
    }
    // Only a new refusal places messages.
  }, [saveProblems]);

  const submit = () => {
    if (readOnly) return;
    if (!codeSide) {
      setSubmittedCode(null);
      void form.handleSubmit((valid) => onSubmit(codec.toDocument(valid)))();
      return;
    }
    if (!parsed.doc || codeBlocked || parsed.problems.length > 0) {
      setCodeAttempted(true);
      return;
    }
    setSubmittedCode(code);
    onSubmit(parsed.doc);
  };

  return {
    code,
    setCode,
    parsed,
    values,
    doc,
    formBlocked,
    codeSide,
    saveProblems,
    submit,
    /** The last save was of this very text (its refusal is marked in it). */
    savedThisCode: submittedCode === code,
    /** A save from Code was refused here: the YAML has problems. */
    codeRefused: codeAttempted && codeSide && (codeBlocked || parsed.problems.length > 0),
  };
}

export type SpecEditorState = ReturnType<typeof useSpecEditor>;

/**
 * What the server said, placed: a problem with a form field goes there (`live`, shown once touched); the
 * others, a refusal's unplaced ones and the warnings are listed, each once.
 */
export function placeProblems(
  saveProblems: readonly ServerProblem[],
  findings: { errors: readonly ServerProblem[]; warnings: readonly string[] } | undefined,
  targetOf: (path: string) => string | undefined,
): { live: Map<string, string>; listed: ListedProblem[] } {
  const live = new Map<string, string>();
  const listed: ListedProblem[] = [];
  // A refusal's placed problems are field errors already (useSpecEditor); the rest are listed.
  for (const problem of saveProblems) if (!targetOf(problem.path)) listed.push({ severity: 'error', message: `${problem.path}: ${problem.message}` });
  for (const problem of findings?.errors ?? []) {
    const target = targetOf(problem.path);
    if (target) live.set(target, problem.message);
    else listed.push({ severity: 'error', message: `${problem.path}: ${problem.message}` });
  }
  for (const warning of findings?.warnings ?? []) listed.push({ severity: 'warning', message: warning });
  return { live, listed: listed.filter((problem, index) => listed.findIndex((other) => other.message === problem.message) === index) };
}

/** What the Code tab marks from the server: the live findings, and a refusal of this very text. */
export function codeFindings(
  editor: Pick<SpecEditorState, 'savedThisCode' | 'saveProblems'>,
  findings: { errors: readonly ServerProblem[]; warnings: readonly string[] } | undefined,
): { errors: ServerProblem[]; warnings: string[] } | undefined {
  if (!findings && !editor.savedThisCode) return undefined;
  return { errors: [...(editor.savedThisCode ? editor.saveProblems : []), ...(findings?.errors ?? [])], warnings: [...(findings?.warnings ?? [])] };
}

export interface SpecEditorFrameProps<V extends FieldValues> {
  form: UseFormReturn<V>;
  editor: Pick<SpecEditorState, 'code' | 'setCode' | 'formBlocked' | 'codeSide' | 'saveProblems' | 'submit' | 'codeRefused'>;
  mode: EditorMode;
  setMode: (mode: EditorMode) => void;
  /** The Code tab's marks. */
  diagnostics: readonly TextDiagnostic[];
  /** The resource's kind as the YAML names it ('Canary', 'ScrapeConfig'). */
  kind: string;
  /** The problems the form tab lists (placeProblems). */
  listed: readonly ListedProblem[];
  /** Why live checking failed, if it did. */
  validationError: Error | null;
  existing: boolean;
  readOnly: boolean;
  saving: boolean;
  onBack: () => void;
  onDelete: (() => void) | undefined;
  /** The Form tab's form. */
  children: ReactNode;
}

/** The Form and Code tabs, what the server said, and the form's actions. */
export function SpecEditorFrame<V extends FieldValues>({
  form,
  editor,
  mode,
  setMode,
  diagnostics,
  kind,
  listed,
  validationError,
  existing,
  readOnly,
  saving,
  onBack,
  onDelete,
  children,
}: SpecEditorFrameProps<V>) {
  return (
    <FormProvider {...form}>
      <form
        noValidate
        className="flex max-w-5xl flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          editor.submit();
        }}
      >
        <TabBar label="Editor" tabs={[{ id: 'form', label: 'Form' }, { id: 'code', label: 'Code' }]} value={mode} onValueChange={(next) => setMode(next === 'code' ? 'code' : 'form')}>
          {mode === 'code' ? (
            <CodeTab value={editor.code} onChange={editor.setCode} diagnostics={diagnostics} readOnly={readOnly} kind={kind} />
          ) : editor.formBlocked ? (
            <div role="note" className="flex max-w-2xl flex-col items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              <p>The YAML in Code has problems, so the form cannot show it. Fix them in Code first.</p>
              <Button size="sm" onClick={() => setMode('code')}>
                Open Code
              </Button>
            </div>
          ) : (
            <div className="flex flex-col gap-4">
              {children}
              <ProblemsList title="Problems the server found" problems={listed} />
            </div>
          )}
        </TabBar>
        {/* Live checking is a help, not a gate: when it fails, say so and let the save decide. */}
        {validationError ? <p className="text-xs text-amber-700">The server could not check the spec as you type: {validationError.message}</p> : null}
        {editor.saveProblems.length > 0 && !saving ? (
          <p role="alert" className="text-sm text-red-600">
            Not saved: the server found problems, shown {editor.codeSide ? 'in the YAML' : 'on the fields and listed above'}.
          </p>
        ) : null}
        {editor.codeRefused ? (
          <p role="alert" className="text-sm text-red-600">
            Fix the problems marked in the YAML before saving.
          </p>
        ) : null}
        <FormActions onBack={onBack} existing={existing} readOnly={readOnly} saving={saving} onDelete={onDelete} />
      </form>
    </FormProvider>
  );
}
