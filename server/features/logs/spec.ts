import { z } from 'zod';
import { isRecord } from '../../platform/errors';
import type { Issue } from '../../platform/http/errors';
import { specProblems } from '../../platform/spec-rows';

const text = z.string().trim().min(1, 'must not be empty');
const labels = z.record(z.string(), z.string(), { message: 'must be a mapping of label to value' });

/**
 * Files on this server: paths or globs (`*`, `**`, `?`, `{a,b}`); `{{name}}` and `{{type}}` take the
 * component's. apm-hub's file backend names the list `path`; it is read as `paths`.
 */
const fileSource = z.preprocess(
  (raw) => {
    if (!isRecord(raw) || raw.path === undefined || raw.paths !== undefined) return raw;
    const { path, ...rest } = raw;
    return { ...rest, paths: path };
  },
  z
    .object({
      paths: z.array(text, { message: 'must be a list of paths or globs' }).min(1, 'give at least one path or glob'),
      labels: labels.optional(),
    })
    .strict(),
);

/**
 * Which topology components the backend holds the logs of (duty's LogSelector: name, type, labels): every
 * field given must match (`*` in a name is a wildcard).
 */
const componentSelector = z
  .object({ name: text.optional(), type: text.optional(), labels: labels.optional() })
  .strict()
  .refine((selector) => selector.name !== undefined || selector.type !== undefined || selector.labels !== undefined, 'give a name, type or labels');

/** `kind: LogBackend` spec (docs/LOGS.md). */
export const logBackendSpecSchema = z
  .object({
    files: z.array(fileSource, { message: 'must be a list of file sources' }).min(1, 'a backend reads files: give at least one entry with paths'),
    components: z.array(componentSelector, { message: 'must be a list of component selectors' }).optional(),
  })
  .strict();
export type LogBackendSpec = z.infer<typeof logBackendSpecSchema>;

/** The spec or every problem, each with its path from the document (`spec.files.0.paths`). */
export function parseLogBackendSpec(spec: unknown): { spec?: LogBackendSpec; errors: Issue[] } {
  const parsed = logBackendSpecSchema.safeParse(spec);
  if (parsed.success) return { spec: parsed.data, errors: [] };
  return { errors: specProblems(parsed.error.issues) };
}
