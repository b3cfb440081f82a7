import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { codeDiagnostics } from '@web/features/canaries/model/diagnostics';
import { serverProblemsOf } from '@web/features/canaries/model/problems';
import { codeFindings, initialEditorState, placeProblems, SpecEditorFrame, useEditorUrl, useSpecEditor } from '@web/features/canaries/editor/spec-editor';
import { toast } from '@web/lib/toast';
import { usePlaybookSchema, usePlaybookValidation, useSavePlaybook } from '../api/playbooks';
import type { Playbook } from '../api/schema';
import { formTargetOf, newPlaybookForm, playbookCodec, playbookFormSchema, PLAYBOOK_YAML, type PlaybookFormValues } from './playbook-form-values';
import { PlaybookForm } from './playbook-form';
import type { ResourceDocument } from '@web/features/canaries/model/document';
import { checkNewResourceName } from '@common/names';

/** A new resource's name and namespace follow the server's rule (docs/RESOURCES.md "Names"); an existing one's stay as saved. */
const newPlaybookFormSchema = playbookFormSchema.superRefine(checkNewResourceName);

export function playbookToDocument(playbook: Playbook): ResourceDocument {
  const labels = Object.fromEntries(Object.entries(playbook.labels ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return { name: playbook.name, namespace: playbook.namespace, labels, spec: playbook.spec ?? {} };
}

export interface PlaybookEditorProps {
  /** The saved playbook, or null for a new one. */
  playbook: Playbook | null;
  readOnly: boolean;
  onBack: () => void;
  onDelete?: (() => void) | undefined;
  /** After a save: the playbook's id. */
  onSaved: (id: string | undefined) => void;
}

/**
 * The playbook editor (spec §2 "Resource spec editor", as the canary editor): Form and Code tabs kept
 * in step (?mode=code), saved through POST /api/playbooks or PUT /api/playbooks/{id}; the server's
 * problems are placed on their fields or marked in the YAML, its warnings listed.
 */
export function PlaybookEditor({ playbook, readOnly, onBack, onDelete, onSaved }: PlaybookEditorProps) {
  const url = useEditorUrl();
  const original = useMemo(() => (playbook ? playbookToDocument(playbook) : null), [playbook]);
  const [initial] = useState(() =>
    initialEditorState<Playbook, PlaybookFormValues>(playbook ? { kind: 'row', row: playbook } : { kind: 'yaml' }, playbookCodec, playbookToDocument, () => newPlaybookForm()),
  );
  const form = useForm<PlaybookFormValues>({ resolver: zodResolver(playbook ? playbookFormSchema : newPlaybookFormSchema), mode: 'onTouched', defaultValues: initial.values });
  const save = useSavePlaybook(playbook?.id);
  // The warnings of the last save (fields read but not run), shown until the next save.
  const [warnings, setWarnings] = useState<string[]>([]);
  const editor = useSpecEditor({
    form,
    codec: playbookCodec,
    initialCode: initial.code,
    mode: url.mode,
    readOnly,
    original,
    noun: PLAYBOOK_YAML.noun,
    saveError: save.error,
    targetOf: (path, values) => formTargetOf(path, values),
    onSubmit: (doc) =>
      save.mutate(
        { name: doc.name.trim(), namespace: doc.namespace.trim() || 'default', labels: doc.labels, spec: doc.spec },
        {
          onSuccess: (answer) => {
            const noted = answer.warnings ?? [];
            setWarnings(noted);
            const saved = playbook ? `${playbook.name} updated successfully` : 'Playbook created successfully';
            toast.success(noted.length > 0 ? `${saved}. Note: ${noted.join('; ')}` : saved);
            onSaved(answer.id ?? playbook?.id);
          },
          onError: (error) => {
            setWarnings([]);
            if (serverProblemsOf(error).length === 0) toast.error(error);
          },
        },
      ),
  });
  const validation = usePlaybookValidation(editor.doc ? editor.doc.spec : null);
  const schema = usePlaybookSchema(url.mode === 'code');
  // Live findings of the spec being edited; after a save, its warnings until the next edit.
  const findings = validation.current && validation.data ? validation.data : warnings.length > 0 ? { errors: [], warnings } : undefined;
  const { listed } = placeProblems(editor.saveProblems, findings, (path) => formTargetOf(path, editor.values));
  const diagnostics = url.mode === 'code' ? codeDiagnostics({ parsed: editor.parsed, schema: schema.data, original, server: codeFindings(editor, findings), noun: PLAYBOOK_YAML.noun }) : [];
  return (
    <SpecEditorFrame
      form={form}
      editor={editor}
      mode={url.mode}
      setMode={url.setMode}
      diagnostics={diagnostics}
      kind={PLAYBOOK_YAML.kind}
      listed={listed}
      validationError={validation.error}
      existing={playbook !== null}
      readOnly={readOnly}
      saving={save.isPending}
      onBack={onBack}
      onDelete={onDelete}
    >
      <PlaybookForm existing={playbook !== null} readOnly={readOnly} />
    </SpecEditorFrame>
  );
}
