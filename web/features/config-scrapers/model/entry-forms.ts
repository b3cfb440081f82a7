/**
 * The form of each scraper type (spec §3 "Health check and scraper forms"), declared as the check forms
 * are (CheckField): one list per type, named as config-db names them, then the shared mapping fields.
 * Whatever else an entry holds (transform, tags, a secret from valueFrom…) is kept and edited in Code.
 */
import type { CheckField } from '@web/features/canaries/model/check-forms';

const lines = (name: string, label: string, hint: string, required = false, placeholder?: string): CheckField => ({
  name,
  label,
  kind: 'lines',
  required,
  hint,
  ...(placeholder ? { placeholder } : {}),
});
const timeout: CheckField = { name: 'timeout', label: 'Timeout (seconds)', kind: 'number' };
const username: CheckField = { name: 'username', label: 'Username', kind: 'secret' };
const password: CheckField = { name: 'password', label: 'Password', kind: 'secret', masked: true };
const ignore = lines('ignore', 'Ignore', 'Globs to leave out, one per line');

/** Spec §3: HTTP methods a scraper sends (config-db: GET, POST, PUT). */
export const SCRAPER_HTTP_METHODS = ['GET', 'POST', 'PUT'] as const;

/** The BaseScraper fields of every type (config-db): what each result becomes. */
export const MAPPING_FIELDS: readonly CheckField[] = [
  { name: 'type', label: 'Item type', kind: 'text', placeholder: 'e.g. App::Settings or $.kind', hint: 'A name or a JSONPath; Kubernetes objects bring theirs' },
  { name: 'id', label: 'Item id', kind: 'text', placeholder: 'e.g. $.id', hint: 'A JSONPath to a unique id; Kubernetes objects bring theirs' },
  { name: 'name', label: 'Item name', kind: 'text', placeholder: 'e.g. $.name', hint: 'A JSONPath or a text; the id when left out' },
  { name: 'items', label: 'Split into items', kind: 'text', placeholder: 'e.g. $.data[*]', hint: 'A JSONPath whose matches become one item each' },
];

export const ENTRY_FORMS: Readonly<Record<string, readonly CheckField[]>> = {
  file: [lines('paths', 'Paths', 'Files, folders or globs, one per line', true, '/etc/app/*.yaml'), ignore],
  kubernetesFile: [lines('paths', 'Paths', 'Manifest files, folders or globs, one per line', true, './manifests'), ignore],
  sql: [
    { name: 'connection', label: 'Connection', kind: 'text', required: true, placeholder: 'postgres://db.internal:5432/app', hint: 'A postgres:// or mysql:// URL' },
    username,
    password,
    { name: 'query', label: 'Query', kind: 'textarea', monospace: true, required: true, placeholder: 'SELECT id, name FROM settings' },
    timeout,
  ],
  http: [
    { name: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'https://api.example.com/items' },
    { name: 'method', label: 'Method', kind: 'select', options: SCRAPER_HTTP_METHODS, initial: 'GET' },
    { name: 'headers', label: 'Headers', kind: 'pairs' },
    { name: 'body', label: 'Body', kind: 'textarea', monospace: true, visible: (values) => values.method === 'POST' || values.method === 'PUT' },
    username,
    password,
    timeout,
  ],
  exec: [
    { name: 'script', label: 'Script', kind: 'textarea', monospace: true, required: true, placeholder: 'echo \'[{"id": "a", "name": "a"}]\'', hint: 'Prints JSON (or YAML) on stdout' },
    { name: 'env', label: 'Environment', kind: 'pairs' },
    timeout,
  ],
  git: [
    { name: 'url', label: 'Repository', kind: 'text', required: true, placeholder: 'https://git.example.com/org/config.git or /srv/config' },
    { name: 'ref', label: 'Ref', kind: 'text', placeholder: 'main', hint: 'A branch, tag or commit; the repository\'s HEAD when blank' },
    lines('paths', 'Paths', 'Globs inside the repository, one per line; YAML and JSON files when blank'),
    ignore,
    username,
    password,
    timeout,
  ],
};

/** The fields of a type's form: its own, then the mapping fields; undefined for a type without a form. */
export function entryForm(type: string): readonly CheckField[] | undefined {
  if (!Object.hasOwn(ENTRY_FORMS, type)) return undefined;
  return [...(ENTRY_FORMS[type] ?? []), ...MAPPING_FIELDS];
}
