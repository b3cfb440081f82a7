import type { z } from 'zod';
import { ValidationError, type Issue } from './errors';
import { propertyOf } from '../../../common/guards';

/** Turns zod issues into our issues, prefixing the part of the request they came from. */
/** A zod issue raised with `params: {atRun: true}`: found only when the thing runs (see Issue.atRun). */
export function isAtRunIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && propertyOf(issue.params, 'atRun') === true;
}

export function zodIssues(error: z.ZodError, prefix = ''): Issue[] {
  return error.issues.map((issue) => {
    const segments = issue.path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : String(segment)));
    const joined = segments.reduce((acc, segment) => (segment.startsWith('[') ? `${acc}${segment}` : acc ? `${acc}.${segment}` : segment), '');
    const path = prefix && joined ? `${prefix}.${joined}` : prefix || joined;
    const atRun = isAtRunIssue(issue);
    return atRun ? { path, message: issue.message, atRun } : { path, message: issue.message };
  });
}

/** Parses a value or throws a ValidationError naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(zodIssues(result.error, prefix));
  return result.data;
}
