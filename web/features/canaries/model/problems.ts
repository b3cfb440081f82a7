import { ApiError } from '@web/lib/api';
import { checkForm } from './check-forms';
import { parseProblemPath, type DocPath } from './document';
import { formIndexOf, type CheckFormValue } from './form-values';

/** One problem the server named (a 400's details, or an error of POST /api/canary/canaries/validate). */
export interface ServerProblem {
  path: string;
  message: string;
}

function isProblem(value: unknown): value is ServerProblem {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'path') === 'string' && typeof Reflect.get(value, 'message') === 'string';
}

/** The problems of a refused save (a 400 answers each with its path), or [] for any other failure. */
export function serverProblemsOf(error: unknown): ServerProblem[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const details: unknown = error.data && typeof error.data === 'object' ? Reflect.get(error.data, 'details') : undefined;
  return Array.isArray(details) ? details.filter(isProblem) : [];
}

/**
 * Where a server path is in the Code tab's document: the body's name, namespace and labels are under
 * metadata there ('body.name' → metadata.name), the spec's paths are as they are.
 */
export function toDocPath(path: string): DocPath {
  const segments = parseProblemPath(path);
  const [first] = segments;
  return first === 'name' || first === 'namespace' || first === 'labels' ? ['metadata', ...segments] : segments;
}

/** The leading path of a server warning ("spec.http[0].foo is not supported…"), if it has one. */
export function warningPath(warning: string): string | undefined {
  return /^(spec(?:\.[A-Za-z0-9_$-]+|\[\d+\])*)/.exec(warning)?.[1];
}

/** The form field a problem belongs to. */
export type FormTarget =
  | { kind: 'name' | 'namespace' | 'schedule' }
  | { kind: 'check'; index: number; field: 'name' | 'description' }
  | { kind: 'check-field'; index: number; field: string };

/**
 * The form field of a server path ('spec.http[0].url' → the url of the form's first http check), or
 * undefined when the form has no field for it (the editor lists those by path).
 */
export function formTargetOf(path: string, checks: readonly CheckFormValue[]): FormTarget | undefined {
  const segments = parseProblemPath(path);
  const [first, second, third, fourth] = segments;
  // Labels are named by key ('labels.team'), not by row: those are listed rather than placed.
  if (first === 'name' || first === 'namespace') return { kind: first };
  if (first !== 'spec' || typeof second !== 'string') return undefined;
  if (second === 'schedule' || second === 'interval') return { kind: 'schedule' };
  // A list item (spec.http[0].url), or a push type's single mapping (spec.webhook.name).
  const [typeIndex, field] = typeof third === 'number' ? [third, fourth] : [0, third];
  const index = formIndexOf(checks, second, typeIndex);
  const check = index === undefined ? undefined : checks[index];
  if (index === undefined || !check || typeof field !== 'string') return undefined;
  if (field === 'name' || field === 'description') return { kind: 'check', index, field };
  const formField = checkForm(second)?.find((candidate) => candidate.name === field || candidate.legacy === field);
  if (!formField || Object.hasOwn(check.rest, formField.name)) return undefined;
  return { kind: 'check-field', index, field: formField.name };
}

/** The form path of a target, as react-hook-form and the live-message map name it. */
export function targetPath(target: FormTarget): 'name' | 'namespace' | 'schedule' | `checks.${number}.${'name' | 'description'}` | `checks.${number}.fields.${string}` {
  switch (target.kind) {
    case 'check':
      return `checks.${target.index}.${target.field}`;
    case 'check-field':
      return `checks.${target.index}.fields.${target.field}`;
    default:
      return target.kind;
  }
}
