import { parseProblemPath } from '@web/features/canaries/model/document';
import { formIndexOf } from '@web/features/canaries/model/form-values';
import { entryForm } from './entry-forms';
import type { EntryFormValue } from './form-values';

/** The form field a server problem belongs to. */
export type FormTarget = { kind: 'name' | 'namespace' | 'schedule' } | { kind: 'entry-field'; index: number; field: string };

/**
 * The form field of a server path ('spec.file[0].paths' → the paths of the form's first file entry), or
 * undefined when the form has no field for it (the editor lists those by path).
 */
export function formTargetOf(path: string, entries: readonly EntryFormValue[]): FormTarget | undefined {
  const [first, second, third, fourth] = parseProblemPath(path);
  if (first === 'name' || first === 'namespace') return { kind: first };
  if (first !== 'spec' || typeof second !== 'string') return undefined;
  if (second === 'schedule') return { kind: 'schedule' };
  if (typeof third !== 'number' || typeof fourth !== 'string') return undefined;
  // The form keeps entries grouped by type in writing order, as it keeps checks.
  const index = formIndexOf(entries, second, third);
  const entry = index === undefined ? undefined : entries[index];
  if (index === undefined || !entry) return undefined;
  const field = entryForm(second)?.find((candidate) => candidate.name === fourth);
  if (!field || Object.hasOwn(entry.rest, field.name)) return undefined;
  return { kind: 'entry-field', index, field: field.name };
}

/** The form path of a target, as react-hook-form and the live-message map name it. */
export function targetPath(target: FormTarget): 'name' | 'namespace' | 'schedule' | `entries.${number}.fields.${string}` {
  return target.kind === 'entry-field' ? `entries.${target.index}.fields.${target.field}` : target.kind;
}
