import { isRecord } from './errors';
import { nameProblem, onlyUppercaseWrong } from '../../common/names';

/**
 * The server's one name check (docs/RESOURCES.md "Names"): the rule itself lives in common/names.ts so the
 * web forms show the same message before saving. Used by `specDocumentSchema` (apply, the watched folder,
 * the Kubernetes API through the kinds' schemas), `applyDocuments` and the Kubernetes API for every kind
 * (Team, Permission, PermissionGroup, Connection, Secret, ConfigMap included), the REST create routes'
 * bodies and /api/db inserts of views.
 */
export {
  documentName,
  documentNamespace,
  isValidName,
  nameProblem,
  NAME_MAX,
  NAME_RULE,
  NAMESPACE_MAX,
  NAMESPACE_RULE,
  onlyUppercaseWrong,
  resourceName,
  resourceNameSchema,
  resourceNamespace,
  textProblem,
  type NameKind,
} from '../../common/names';

export interface NameIssue {
  /** The field's path from the document (`metadata.name`). */
  path: string;
  message: string;
  /** Only its uppercase letters are wrong (`HTTP`): `apply` takes it with a warning (docs/RESOURCES.md "Names"). */
  uppercaseOnly: boolean;
}

/**
 * Problems of a document's `metadata.name` and `metadata.namespace`, each with its field: a missing name is
 * left to the kind's schema ("is required"); a value that is not text is left to it too. Values are checked
 * trimmed, as the kinds' schemas store them.
 */
export function metadataNameIssues(metadata: unknown, options: { trim?: boolean; prefix?: string } = {}): NameIssue[] {
  if (!isRecord(metadata)) return [];
  const trim = options.trim ?? true;
  const prefix = options.prefix ?? 'metadata.';
  const issues: NameIssue[] = [];
  for (const [field, kind] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
  ] as const) {
    const value = metadata[field];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const problem = nameProblem(trim ? value.trim() : value, kind);
    if (problem) issues.push({ path: `${prefix}${field}`, message: problem, uppercaseOnly: onlyUppercaseWrong(trim ? value.trim() : value, kind) });
  }
  return issues;
}

/** The same check for a row's `name` and `namespace` columns as written, untrimmed (`name: "My Check" is not a valid name: …`). */
export function rowNameIssues(row: Record<string, unknown>): NameIssue[] {
  return metadataNameIssues(row, { trim: false, prefix: '' });
}
