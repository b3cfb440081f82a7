import { sameDocument } from '@web/features/canaries/model/document';
import { documentToYaml, parseScraperYaml, rowToDocument, type ScraperDocument, type ScraperRowLike } from '../model/document';
import { documentToForm, formToDocument, newScraperForm, type ScraperFormValues } from '../model/form-values';

/** Where the editor starts: a saved scraper, a new one of a scraper type (picked on a card), or YAML. */
export type EditorStart = { kind: 'row'; row: ScraperRowLike } | { kind: 'type'; type: string } | { kind: 'yaml' };

export function initialEditorState(start: EditorStart, typeNames: readonly string[]): { values: ScraperFormValues; code: string } {
  if (start.kind === 'row') {
    const doc = rowToDocument(start.row);
    return { values: documentToForm(doc, typeNames), code: documentToYaml(doc) };
  }
  const values = newScraperForm(start.kind === 'type' ? start.type : undefined);
  return { values, code: documentToYaml(formToDocument(values)) };
}

/** A document as the form would write it (secrets as {value}, keys in the form's order…). */
function normalized(doc: ScraperDocument, typeNames: readonly string[]): ScraperDocument {
  return formToDocument(documentToForm(doc, typeNames));
}

/**
 * The Code tab's text after the Form tab: unchanged when it already says what the form says (so its
 * comments and layout survive a look at the form), otherwise written anew from the form.
 */
export function syncedCode(code: string, values: ScraperFormValues, typeNames: readonly string[]): string {
  const fromForm = formToDocument(values);
  const parsed = parseScraperYaml(code).doc;
  if (parsed && sameDocument(normalized(parsed, typeNames), fromForm)) return code;
  return documentToYaml(fromForm);
}

/** The form's values after the Code tab, or undefined when the form already says what the code says (its touched fields stay). */
export function syncedForm(doc: ScraperDocument, values: ScraperFormValues, typeNames: readonly string[]): ScraperFormValues | undefined {
  const next = documentToForm(doc, typeNames);
  return sameDocument(formToDocument(next), formToDocument(values)) ? undefined : next;
}
