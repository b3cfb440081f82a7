import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ResourceEditorProps } from '@web/features/settings/resources/types';
import { Loading } from '@web/ui/primitives/loading';
import { codeDiagnostics } from '../model/diagnostics';
import { CANARY_KIND, documentToWrite, rowToDocument } from '../model/document';
import { canaryFormSchema, newCanaryForm, type CanaryFormValues } from '../model/form-values';
import { formTargetOf, targetPath } from '../model/problems';
import { useCanarySchema, useCanaryValidation, useCheckTypes, type CheckTypeInfo } from '../queries';
import { CanaryForm } from './canary-form';
import { canaryCodec } from './editor-state';
import { codeFindings, editorStart, initialEditorState, placeProblems, SpecEditorFrame, useEditorUrl, useSpecEditor, type EditorMode, type EditorStart } from './spec-editor';
import { TypePicker } from './type-picker';
import { checkNewResourceName } from '@common/names';

/** A new resource's name and namespace follow the server's rule (docs/RESOURCES.md "Names"); an existing one's stay as saved. */
const newCanaryFormSchema = canaryFormSchema.superRefine(checkNewResourceName);

/**
 * The health check editor (spec §2 "Resource spec editor"): for a new canary a grid of the check types
 * this server runs, then a form with Form and Code tabs that stay in step. The mode and the chosen type
 * are in the URL (?mode=code, ?type=http).
 */
export default function CanaryEditor(props: ResourceEditorProps) {
  const types = useCheckTypes();
  const url = useEditorUrl();
  if (types.isLoading) return <Loading />;
  if (!types.data) return <p role="alert">{types.error?.message ?? 'The check types could not be loaded'}</p>;
  const known = types.data;
  const start = editorStart(props.row, url.type, url.mode, known);
  if (!start) return <TypePicker types={known} onPick={url.pickType} onCode={url.startYaml} onBack={props.onBack} />;
  return <CanaryEditorBody key={start.kind === 'type' ? start.type : start.kind} {...props} types={known} start={start} mode={url.mode} setMode={url.setMode} />;
}

interface BodyProps extends ResourceEditorProps {
  types: readonly CheckTypeInfo[];
  start: EditorStart<NonNullable<ResourceEditorProps['row']>>;
  mode: EditorMode;
  setMode: (mode: EditorMode) => void;
}

const targetOf = (path: string, values: Pick<CanaryFormValues, 'checks'>) => {
  const target = formTargetOf(path, values.checks);
  return target && targetPath(target);
};

function CanaryEditorBody({ row, readOnly, saving, saveError, onSubmit, onBack, onDelete, types, start, mode, setMode }: BodyProps) {
  const codec = useMemo(() => canaryCodec(types.map((type) => type.type), types.filter((type) => type.push).map((type) => type.type)), [types]);
  const [initial] = useState(() => initialEditorState(start, codec, rowToDocument, newCanaryForm));
  const form = useForm<CanaryFormValues>({ resolver: zodResolver(row ? canaryFormSchema : newCanaryFormSchema), mode: 'onTouched', defaultValues: initial.values });
  const original = useMemo(() => (row ? rowToDocument(row) : null), [row]);
  const editor = useSpecEditor({ form, codec, initialCode: initial.code, mode, readOnly, original, saveError, targetOf, onSubmit: (doc) => onSubmit(documentToWrite(doc)) });
  const validation = useCanaryValidation(editor.doc ? { namespace: editor.doc.namespace, spec: editor.doc.spec } : null);
  const schema = useCanarySchema(mode === 'code');
  const findings = validation.current && validation.data ? validation.data : undefined;
  const { live, listed } = placeProblems(editor.saveProblems, findings, (path) => targetOf(path, editor.values));
  const diagnostics =
    mode === 'code'
      ? codeDiagnostics({
          parsed: editor.parsed,
          schema: schema.data,
          original,
          server: codeFindings(editor, findings),
        })
      : [];

  return (
    <SpecEditorFrame
      form={form}
      editor={editor}
      mode={mode}
      setMode={setMode}
      diagnostics={diagnostics}
      kind={CANARY_KIND}
      listed={listed}
      validationError={validation.error}
      existing={row !== null}
      readOnly={readOnly}
      saving={saving}
      onBack={onBack}
      onDelete={onDelete}
    >
      <CanaryForm types={types} existing={row !== null} readOnly={readOnly} live={live} />
    </SpecEditorFrame>
  );
}
