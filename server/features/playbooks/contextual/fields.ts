import { isRecord } from '../../../platform/errors';
import type { ActionType } from '../action-types';

/**
 * Which fields of an action are templated, as Mission Control's struct templater decides it: a field is
 * rendered only when every field on its path is tagged `template:"true"` (api/v1/playbook_actions.go and the
 * duty types it inlines: HTTPConnection, Authentication, OAuth, TLSConfig, EnvVar's value, PrometheusQuery,
 * the logs requests, shell.Artifact, ExecConnections.fromConfigItem). Every other field is used as written,
 * `{{` and `$(` included: an exec action's `env` and `checkout`, a sql `url` or `driver`, a github `token`
 * or `workflows[].id`, an ai `systemPrompt`, everything of `pod`. An http `body` is templated whatever
 * `templateBody` says: Mission Control's runner does not read that flag.
 *
 * A field whose value reaches a language is rendered for it (contextual/*): where it says so below, a value
 * is data in that language, never code.
 */

/** How a templated string is rendered. */
export type Renderer =
  /** plain text: the rendered output as it is */
  | 'text'
  /** exec.script: values through environment variables (shell.ts) */
  | 'script'
  /** sql.query: values as literals of the dialect (sql.ts) */
  | 'query'
  /** http.url: values percent-encoded for their place (url.ts) */
  | 'url'
  /** notification.url: a notification URL, values percent-encoded for their place, scheme and host kept (url.ts) */
  | 'notificationUrl'
  /** sql.connection: a connection's name, or a connection string whose values are placed as in a URL (url.ts) */
  | 'sqlConnection'
  /** gitops repo.url: a git remote, values percent-encoded for their place, scheme and host kept (url.ts) */
  | 'gitUrl'
  /** gitops repo.base and repo.branch: no leading '-', '..' or control character from a value (git.ts) */
  | 'gitRef'
  /** a gitops file's or patch's path: no leading '-', '..' component or control character from a value (git.ts) */
  | 'gitPath'
  /** an http header value: no line ends (url.ts) */
  | 'header'
  /** http.body: JSON, form, XML or text by its written shape and Content-Type (body.ts) */
  | 'body'
  /** a JSON document (github workflows[].input) (body.ts) */
  | 'json'
  /** a gitops file's content: JSON when its path ends in .json, else as text (body.ts) */
  | 'file'
  /** gitops patches[].yq: values as YAML/JSON literals or quoted keys (yq.ts) */
  | 'yq'
  /** PromQL and LogQL: values as string literals, names or numbers (promql.ts) */
  | 'promql';

/**
 * The shape of what is templated inside a block: a renderer for a text field; `envVar` for duty's EnvVar
 * (a bare text or `{value}`: the value only, never `name` or `valueFrom`); `texts` for a list of texts;
 * `map` for a map of texts (keys and values, as gomplate templates map keys); `tree` for a JSON value written
 * as YAML (every key and text inside); a one-item list for each item of a list; an object for the fields of
 * an object, in the order they are rendered (a later field may read an earlier one's output).
 */
export type Shape = Renderer | 'envVar' | 'texts' | 'map' | 'tree' | readonly [Shape] | { readonly [field: string]: Shape };

/** duty's HTTPConnection, inlined in Mission Control's http action (awsSigV4 is not read here). */
const httpConnection = {
  connection: 'text',
  url: 'url',
  username: 'envVar',
  password: 'envVar',
  bearer: 'envVar',
  oauth: { clientID: 'envVar', clientSecret: 'envVar', scope: 'texts', scopes: 'texts', tokenURL: 'text', params: 'map' },
  tls: { ca: 'envVar', cert: 'envVar', key: 'envVar' },
  headers: [{ value: 'header' }],
} as const satisfies Shape;

/** duty's LogsRequestBase: only `limit` is tagged (start and end are not). */
const logsRequestBase = { limit: 'text' } as const;

/** Per action type, its templated fields (relative to its block). */
export const TEMPLATED: Readonly<Record<ActionType, Shape>> = {
  exec: { script: 'script', connections: { fromConfigItem: 'text' }, artifacts: [{ path: 'text' }] },
  http: { ...httpConnection, method: 'text', body: 'body' },
  sql: { connection: 'sqlConnection', query: 'query' },
  notification: {
    url: 'notificationUrl',
    connection: 'text',
    title: 'text',
    message: 'text',
    properties: 'map',
    attachments: [{ filename: 'text', content: 'text', contentType: 'text' }],
  },
  logs: {
    loki: { ...logsRequestBase, query: 'promql' },
    cloudwatch: { ...logsRequestBase, logGroup: 'text', query: 'text' },
    cloudWatch: { ...logsRequestBase, logGroup: 'text', query: 'text' },
    opensearch: { index: 'text', query: 'text', limit: 'text' },
    openSearch: { index: 'text', query: 'text', limit: 'text' },
    kubernetes: { ...logsRequestBase, kind: 'text', apiVersion: 'text', namespace: 'text', name: 'text' },
    // This console's own backend (no Mission Control counterpart): its name as a connection's, query and limit as loki's.
    backend: { name: 'text', query: 'text', limit: 'text' },
  },
  gitops: {
    repo: { url: 'gitUrl', base: 'gitRef', branch: 'gitRef', connection: 'text', type: 'text' },
    commit: { author: 'text', email: 'text', message: 'text' },
    pr: { title: 'text', tags: 'texts' },
    patches: [{ path: 'gitPath', yq: 'yq', jq: 'text' }],
    files: [{ path: 'gitPath', content: 'file' }],
  },
  github: { repo: 'text', username: 'text', workflows: [{ ref: 'text', input: 'json' }] },
  azureDevopsPipeline: {
    org: 'text',
    project: 'text',
    pipeline: { id: 'text', version: 'text' },
    parameters: { resources: 'tree', templateParameters: 'tree', variables: 'tree', stagesToSkip: 'texts' },
  },
  prometheus: { query: 'promql', range: { start: 'text', end: 'text', step: 'text' } },
  ai: { config: 'text', prompt: 'text' },
  pod: {},
  report: {
    view: 'text',
    title: 'text',
    configs: 'tree',
    file: { path: 'text', git: { connection: 'text', url: 'text', base: 'text', file: 'text' } },
    format: 'text',
    variables: 'map',
    facet: 'tree',
    since: 'text',
    recursive: 'text',
    groupBy: 'text',
    changeArtifacts: 'text',
    expandGroups: 'text',
    audit: 'text',
    filters: 'texts',
    sections: 'map',
  },
};

/** A templated text found in a block: where it is (`http.headers[0].value`), its renderer and its value. */
export interface TemplatedText {
  path: string;
  renderer: Renderer;
  value: string;
  /** A map key (rendered as text). */
  key?: boolean;
}

/**
 * The block with each templated text replaced by what `render` gives for it (called in the shape's order,
 * with the object being rebuilt so far as `parent`); every other value is kept as written.
 */
export function mapTemplated(
  value: unknown,
  shape: Shape,
  path: string,
  render: (text: TemplatedText, parent: Record<string, unknown> | undefined) => unknown,
  parent?: Record<string, unknown>,
): unknown {
  if (typeof shape === 'string') {
    switch (shape) {
      case 'envVar':
        if (typeof value === 'string') return render({ path, renderer: 'text', value }, parent);
        if (isRecord(value) && typeof value.value === 'string') return { ...value, value: render({ path: `${path}.value`, renderer: 'text', value: value.value }, parent) };
        return value;
      case 'texts':
        return Array.isArray(value) ? value.map((item, index) => (typeof item === 'string' ? render({ path: `${path}[${index}]`, renderer: 'text', value: item }, parent) : item)) : value;
      case 'map':
      case 'tree':
        return mapTree(value, path, render, parent, shape === 'map');
      default:
        return typeof value === 'string' ? render({ path, renderer: shape, value }, parent) : value;
    }
  }
  if (Array.isArray(shape)) {
    const item = (shape as readonly [Shape])[0];
    return Array.isArray(value) ? value.map((element, index) => mapTemplated(element, item, `${path}[${index}]`, render, parent)) : value;
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [field, inner] of Object.entries(shape as Record<string, Shape>)) {
    if (Object.hasOwn(value, field)) out[field] = mapTemplated(value[field], inner, path === '' ? field : `${path}.${field}`, render, out);
  }
  return out;
}

/**
 * Keys and texts of a map or JSON tree, rendered as text. In a map (gomplate's rule) a text value and a
 * nested map are templated and a list is kept; in a tree everything is.
 */
function mapTree(value: unknown, path: string, render: (text: TemplatedText, parent: Record<string, unknown> | undefined) => unknown, parent: Record<string, unknown> | undefined, map: boolean): unknown {
  if (typeof value === 'string') return render({ path, renderer: 'text', value }, parent);
  if (Array.isArray(value)) return map ? value : value.map((item, index) => mapTree(item, `${path}[${index}]`, render, parent, false));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const where = `${path}.${key}`;
    const rendered = render({ path: `${where} (key)`, renderer: 'text', value: key, key: true }, parent);
    out[typeof rendered === 'string' ? rendered : key] = mapTree(item, where, render, parent, map && Array.isArray(item));
  }
  return out;
}

/** Every templated text of a block, with its path (for checks at save: they must parse). */
export function templatedTexts(type: ActionType, block: unknown): TemplatedText[] {
  const found: TemplatedText[] = [];
  mapTemplated(block, TEMPLATED[type], type, (text) => {
    found.push(text);
    return text.value;
  });
  return found;
}

/** Texts of a block holding `{{` in a field that is not templated (used as written): their paths. */
export function untemplatedTemplates(type: ActionType, block: unknown): string[] {
  const templated = new Set(templatedTexts(type, block).filter((text) => !text.key).map((text) => text.path));
  const out: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (value.includes('{{') && !templated.has(path)) out.push(path);
    } else if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (isRecord(value)) for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
  };
  walk(block, type);
  return out;
}
