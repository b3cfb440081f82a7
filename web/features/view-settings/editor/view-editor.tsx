import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { codeFindings, initialEditorState, placeProblems, SpecEditorFrame, useEditorUrl, useSpecEditor } from '@web/features/canaries/editor/spec-editor';
import { codeDiagnostics } from '@web/features/canaries/model/diagnostics';
import type { ResourceDocument } from '@web/features/canaries/model/document';
import { serverProblemsOf } from '@web/features/canaries/model/problems';
import { toast } from '@web/lib/toast';
import type { ViewRow } from '../api/schema';
import { useSaveView, useViewSchema, useViewValidation } from '../api/views';
import { formTargetOf, newViewForm, VIEW_YAML, viewCodec, viewFormSchema, type ViewFormValues } from '../model/form-values';
import { ViewForm } from './view-form';
import { checkNewResourceName } from '@common/names';

/** A new resource's name and namespace follow the server's rule (docs/RESOURCES.md "Names"); an existing one's stay as saved. */
const newViewFormSchema = viewFormSchema.superRefine(checkNewResourceName);

export function viewToDocument(view: ViewRow): ResourceDocument {
  const labels = Object.fromEntries(Object.entries(view.labels ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return { name: view.name, namespace: view.namespace, labels, spec: view.spec ?? {} };
}

export interface ViewEditorProps {
  /** The saved view, or null for a new one. */
  view: ViewRow | null;
  readOnly: boolean;
  onBack: () => void;
  onDelete?: (() => void) | undefined;
  /** After a save: the view's id. */
  onSaved: (id: string) => void;
}

/**
 * The view editor (spec §2 /settings/views, as the playbook editor): Form and Code tabs kept in step
 * (?mode=code), checked live by POST /api/views/validate (errors on their fields or marked in the YAML,
 * warnings listed), saved through POST /api/views or PUT /api/views/{id}.
 */
export function ViewEditor({ view, readOnly, onBack, onDelete, onSaved }: ViewEditorProps) {
  const url = useEditorUrl();
  const original = useMemo(() => (view ? viewToDocument(view) : null), [view]);
  const [initial] = useState(() => initialEditorState<ViewRow, ViewFormValues>(view ? { kind: 'row', row: view } : { kind: 'yaml' }, viewCodec, viewToDocument, () => newViewForm()));
  const form = useForm<ViewFormValues>({ resolver: zodResolver(view ? viewFormSchema : newViewFormSchema), mode: 'onTouched', defaultValues: initial.values });
  const save = useSaveView(view?.id);
  const editor = useSpecEditor({
    form,
    codec: viewCodec,
    initialCode: initial.code,
    mode: url.mode,
    readOnly,
    original,
    noun: VIEW_YAML.noun,
    saveError: save.error,
    targetOf: (path, values) => formTargetOf(path, values),
    onSubmit: (doc) =>
      save.mutate(
        { name: doc.name.trim(), namespace: doc.namespace.trim() || 'default', labels: doc.labels, spec: doc.spec },
        {
          onSuccess: (answer) => {
            const noted = answer.warnings ?? [];
            const saved = view ? `${view.name} updated successfully` : 'View created successfully';
            toast.success(noted.length > 0 ? `${saved}. Note: ${noted.join('; ')}` : saved);
            const id = answer.id ?? view?.id;
            if (id) onSaved(id);
          },
          onError: (error) => {
            if (serverProblemsOf(error).length === 0) toast.error(error);
          },
        },
      ),
  });
  const validation = useViewValidation(readOnly || !editor.doc ? null : editor.doc.spec);
  const schema = useViewSchema(url.mode === 'code');
  const findings = validation.current && validation.data ? validation.data : undefined;
  const { live, listed } = placeProblems(editor.saveProblems, findings, (path) => formTargetOf(path, editor.values));
  const diagnostics =
    url.mode === 'code' ? codeDiagnostics({ parsed: editor.parsed, schema: schema.data, original, server: codeFindings(editor, findings), noun: VIEW_YAML.noun }) : [];
  return (
    <SpecEditorFrame
      form={form}
      editor={editor}
      mode={url.mode}
      setMode={url.setMode}
      diagnostics={diagnostics}
      kind={VIEW_YAML.kind}
      listed={listed}
      validationError={validation.error}
      existing={view !== null}
      readOnly={readOnly}
      saving={save.isPending}
      onBack={onBack}
      onDelete={onDelete}
    >
      <ViewForm existing={view !== null} readOnly={readOnly} live={live} />
    </SpecEditorFrame>
  );
}
