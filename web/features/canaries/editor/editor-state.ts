import type { ResourceRow } from '@web/features/settings/resources/values';
import { DEFAULT_NAMESPACE, documentToYaml, parseCanaryYaml, rowToDocument, sameDocument, type CanaryDocument } from '../model/document';
import { documentToForm, formToDocument, newCheck, type CanaryFormValues } from '../model/form-values';

/** Where the editor starts: a saved canary, a new one of a check type (picked on a card), or YAML. */
export type EditorStart = { kind: 'row'; row: ResourceRow } | { kind: 'type'; type: string } | { kind: 'yaml' };

/** A new canary's schedule until the person picks another (one of spec §9's resource schedule options). */
export const DEFAULT_SCHEDULE = '@every 5m';

export function initialEditorState(start: EditorStart, typeNames: readonly string[], pushTypes: readonly string[]): { values: CanaryFormValues; code: string } {
  if (start.kind === 'row') {
    const doc = rowToDocument(start.row);
    return { values: documentToForm(doc, typeNames), code: documentToYaml(doc) };
  }
  const values: CanaryFormValues = {
    name: '',
    namespace: DEFAULT_NAMESPACE,
    labels: [],
    schedule: DEFAULT_SCHEDULE,
    checks: start.kind === 'type' ? [newCheck(start.type)] : [],
    specRest: {},
  };
  return { values, code: documentToYaml(formToDocument(values, pushTypes)) };
}

/** A document as the form would write it (secrets as {value}, keys in the form's order…). */
function normalized(doc: CanaryDocument, typeNames: readonly string[], pushTypes: readonly string[]): CanaryDocument {
  return formToDocument(documentToForm(doc, typeNames), pushTypes);
}

/**
 * The Code tab's text after the Form tab: unchanged when it already says what the form says (so its
 * comments and layout survive a look at the form), otherwise written anew from the form.
 */
export function syncedCode(code: string, values: CanaryFormValues, typeNames: readonly string[], pushTypes: readonly string[]): string {
  const fromForm = formToDocument(values, pushTypes);
  const parsed = parseCanaryYaml(code).doc;
  if (parsed && sameDocument(normalized(parsed, typeNames, pushTypes), fromForm)) return code;
  return documentToYaml(fromForm);
}

/** The form's values after the Code tab, or undefined when the form already says what the code says (its touched fields stay). */
export function syncedForm(doc: CanaryDocument, values: CanaryFormValues, typeNames: readonly string[], pushTypes: readonly string[]): CanaryFormValues | undefined {
  const next = documentToForm(doc, typeNames);
  return sameDocument(formToDocument(next, pushTypes), formToDocument(values, pushTypes)) ? undefined : next;
}
