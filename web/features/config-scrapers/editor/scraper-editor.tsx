import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  codeFindings,
  editorStart,
  initialEditorState,
  placeProblems,
  SpecEditorFrame,
  useEditorUrl,
  useSpecEditor,
  type EditorMode,
  type EditorStart,
} from '@web/features/canaries/editor/spec-editor';
import { TypePicker } from '@web/features/canaries/editor/type-picker';
import { codeDiagnostics } from '@web/features/canaries/model/diagnostics';
import { Loading } from '@web/ui/primitives/loading';
import { documentToWrite, rowToDocument, SCRAPE_CONFIG_YAML, type ScraperRowLike, type ScraperWrite } from '../model/document';
import { newScraperForm, scraperFormSchema, type ScraperFormValues } from '../model/form-values';
import { formTargetOf, targetPath } from '../model/problems';
import type { ScraperTypeInfo } from '../model/scraper-types';
import { useScraperSchema, useScraperValidation } from '../queries';
import { scraperCodec } from './editor-state';
import { ScraperForm } from './scraper-form';
import { checkNewResourceName } from '@common/names';

/** A new resource's name and namespace follow the server's rule (docs/RESOURCES.md "Names"); an existing one's stay as saved. */
const newScraperFormSchema = scraperFormSchema.superRefine(checkNewResourceName);

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
  const url = useEditorUrl();
  if (schema.isLoading) return <Loading />;
  if (!schema.data) return <p role="alert">{schema.error?.message ?? 'The scraper types could not be loaded'}</p>;
  const known = schema.data.types;
  const start = editorStart(props.row, url.type, url.mode, known);
  if (!start) {
    return (
      <TypePicker
        types={known}
        heading="Choose the type of scraper"
        empty={{ title: 'No scraper types', description: 'This server runs no scraper types; write the ScrapeConfig in YAML instead.' }}
        onPick={url.pickType}
        onCode={url.startYaml}
        onBack={props.onBack}
      />
    );
  }
  return <ScraperEditorBody key={start.kind === 'type' ? start.type : start.kind} {...props} types={known} jsonSchema={schema.data.schema} start={start} mode={url.mode} setMode={url.setMode} />;
}

interface BodyProps extends ScraperEditorProps {
  types: readonly ScraperTypeInfo[];
  jsonSchema: NonNullable<ReturnType<typeof useScraperSchema>['data']>['schema'];
  start: EditorStart<ScraperRowLike>;
  mode: EditorMode;
  setMode: (mode: EditorMode) => void;
}

const targetOf = (path: string, values: Pick<ScraperFormValues, 'entries'>) => {
  const target = formTargetOf(path, values.entries);
  return target && targetPath(target);
};

function ScraperEditorBody({ row, readOnly, saving, saveError, onSubmit, onBack, onDelete, types, jsonSchema, start, mode, setMode }: BodyProps) {
  const codec = useMemo(() => scraperCodec(types.map((type) => type.type)), [types]);
  const [initial] = useState(() => initialEditorState(start, codec, rowToDocument, newScraperForm));
  const form = useForm<ScraperFormValues>({ resolver: zodResolver(row ? scraperFormSchema : newScraperFormSchema), mode: 'onTouched', defaultValues: initial.values });
  const original = useMemo(() => (row ? rowToDocument(row) : null), [row]);
  // The editor does not show the description; a save keeps it (leaving it out of a PUT would clear it).
  const description = row?.description ?? null;
  const editor = useSpecEditor({
    form,
    codec,
    initialCode: initial.code,
    mode,
    readOnly,
    original,
    noun: SCRAPE_CONFIG_YAML.noun,
    saveError,
    targetOf,
    onSubmit: (doc) => onSubmit(documentToWrite(doc, description)),
  });
  const validation = useScraperValidation(editor.doc ? { namespace: editor.doc.namespace, spec: editor.doc.spec } : null);
  const findings = validation.current && validation.data ? validation.data : undefined;
  const { live, listed } = placeProblems(editor.saveProblems, findings, (path) => targetOf(path, editor.values));
  const diagnostics =
    mode === 'code'
      ? codeDiagnostics({
          parsed: editor.parsed,
          schema: jsonSchema,
          original,
          noun: SCRAPE_CONFIG_YAML.noun,
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
      kind={SCRAPE_CONFIG_YAML.kind}
      listed={listed}
      validationError={validation.error}
      existing={row !== null}
      readOnly={readOnly}
      saving={saving}
      onBack={onBack}
      onDelete={onDelete}
    >
      <ScraperForm types={types} existing={row !== null} readOnly={readOnly} live={live} />
    </SpecEditorFrame>
  );
}
