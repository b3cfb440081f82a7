import { z } from 'zod';
import { actionsOfPermission, isGlobalObject, isResource, type GlobalObject } from '../../../common/rbac';
import { isRecord } from '../../platform/errors';
import { parseLabelSelector } from '../../platform/label-selector';

const text = z.string().trim().min(1, 'must not be empty');
const selectorText = z.string().refine((value) => parseLabelSelector(value) !== undefined, 'is not a label selector (such as "app=web,tier!=db")');

/** duty's ResourceSelector, as a Permission's object lists write it (a plain `labels` map is read too). */
const resourceSelector = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    types: z.union([z.string(), z.array(z.string())]).optional(),
    /** Not Mission Control's (its field is `types`); read as one type, with a warning. */
    type: z.string().optional(),
    labels: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
    labelSelector: selectorText.optional(),
    tagSelector: selectorText.optional(),
    fieldSelector: z.string().optional(),
    health: z.string().optional(),
    statuses: z.union([z.string(), z.array(z.string())]).optional(),
    agent: z.string().optional(),
    scope: z.string().optional(),
    search: z.string().optional(),
    cache: z.string().optional(),
    limit: z.number().int().optional(),
    includeDeleted: z.boolean().optional(),
  })
  .strict();
export type PermissionResourceSelector = z.infer<typeof resourceSelector>;
const namedRef = z.object({ id: z.string().optional(), namespace: z.string().optional(), name: z.string().optional() }).strict();

/** The kinds a Permission's object may select, and the global object a lone wildcard selector stands for. */
export const OBJECT_KINDS = {
  configs: { global: 'catalog', column: 'config_id' },
  components: { global: 'topology', column: 'component_id' },
  playbooks: { global: 'playbooks', column: 'playbook_id' },
  connections: { global: 'connection', column: 'connection_id' },
} as const satisfies Record<string, { global: GlobalObject; column: string }>;
const KIND_KEYS = ['configs', 'components', 'playbooks', 'connections'] as const satisfies ReadonlyArray<keyof typeof OBJECT_KINDS>;
const OBJECT_SELECTOR_KEYS = [...KIND_KEYS, 'views', 'scopes'] as const;

const objectSchema = z
  .object({
    global: text.optional(),
    configs: z.array(resourceSelector).optional(),
    components: z.array(resourceSelector).optional(),
    playbooks: z.array(resourceSelector).optional(),
    connections: z.array(resourceSelector).optional(),
    views: z.array(namedRef).optional(),
    scopes: z.array(namedRef).optional(),
    plugins: z.array(resourceSelector).optional(),
    /** Mission Control's global MCP object (`mcp:use`); never with selectors or scopes. */
    mcp: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .strict();
export type PermissionObject = z.infer<typeof objectSchema>;

export const SUBJECT_KEYS = ['person', 'team', 'notification', 'group', 'playbook', 'plugin', 'canary', 'scraper', 'topology'] as const;
export type SubjectKey = (typeof SUBJECT_KEYS)[number];

/**
 * `kind: Permission` spec (Mission Control's PermissionSpec): description, actions (or the older single
 * action), subject, object, deny, agents and tags.
 */
export const permissionSpecSchema = z
  .object({
    description: z.string().max(2000).optional(),
    actions: z.array(text, { message: 'must be a list of actions' }).optional(),
    action: text.optional(),
    // Keys that are not Mission Control's (a `user:`) are kept for a warning; the permission kind names them.
    subject: z.object(Object.fromEntries(SUBJECT_KEYS.map((key) => [key, text.optional()]))).catchall(z.unknown()),
    object: objectSchema.default({}),
    deny: z.boolean({ message: 'must be true or false' }).default(false),
    agents: z.array(text, { message: 'must be a list of agent ids or names' }).optional(),
    tags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String), { message: 'must be a mapping of tag to value' }).optional(),
  })
  .strict()
  // Checked even when other fields have problems: every problem of a document is reported at once.
  .superRefine(
    (spec, ctx) => {
      const actions: unknown = Reflect.get(spec, 'actions');
      const action: unknown = Reflect.get(spec, 'action');
      if ((!Array.isArray(actions) || actions.length === 0) && (typeof action !== 'string' || action.trim() === '')) {
        ctx.addIssue({ code: 'custom', path: ['actions'], message: 'is required: at least one action (read, update, playbook:run, …)' });
      }
      const subject: unknown = Reflect.get(spec, 'subject');
      if (!isRecord(subject) || Object.values(subject).every((value) => value === undefined || value === null || value === '')) {
        ctx.addIssue({ code: 'custom', path: ['subject'], message: 'is required: a person, team, group, notification or playbook' });
      }
      const object: unknown = Reflect.get(spec, 'object');
      if (isRecord(object) && object.mcp === true && OBJECT_SELECTOR_KEYS.some((key) => Array.isArray(object[key]) && object[key].length > 0)) {
        ctx.addIssue({ code: 'custom', path: ['object', 'mcp'], message: 'cannot be combined with selectors or scopes (as in Mission Control)' });
      }
    },
    { when: () => true },
  );
export type PermissionSpec = z.infer<typeof permissionSpecSchema>;

/** A lone selector that selects everything of its kind (`name: '*'`, or `{}`): the kind's global object. */
export function isWildcard(selector: PermissionResourceSelector): boolean {
  const keys = Object.entries(selector).filter(([, value]) => value !== undefined);
  return keys.length === 0 || (keys.length === 1 && selector.name === '*');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** What a Permission's object becomes in a permission row, and what of it is not evaluated. */
export interface ObjectColumns {
  object: string | null;
  object_selector: Record<string, unknown> | null;
  config_id: string | null;
  component_id: string | null;
  playbook_id: string | null;
  connection_id: string | null;
  warnings: string[];
}

const NOT_EVALUATED: Array<keyof PermissionResourceSelector> = ['fieldSelector', 'health', 'statuses', 'scope', 'search'];

/**
 * Maps the object: a global area; a lone wildcard selector as its kind's global object (as Mission Control
 * reads it); a lone selector by id as that resource; anything else as selectors evaluated per request.
 */
export function objectColumns(spec: PermissionSpec, namespace = 'default'): ObjectColumns | { error: string } {
  const { object } = spec;
  const out: ObjectColumns = { object: null, object_selector: null, config_id: null, component_id: null, playbook_id: null, connection_id: null, warnings: [] };
  const kinds = KIND_KEYS.filter((key) => (object[key]?.length ?? 0) > 0);
  const selectors: Record<string, unknown> = {};
  // One kind alone may become its global object or one resource's column; with others, all stay selectors.
  const alone = kinds.length === 1 && !object.views?.length && !object.scopes?.length;
  for (const key of kinds) {
    const list = object[key] ?? [];
    const only = list.length === 1 ? list[0] : undefined;
    if (alone && only && isWildcard(only)) out.object = OBJECT_KINDS[key].global;
    else if (alone && only?.id && isUuid(only.id) && Object.keys(only).length === 1) out[OBJECT_KINDS[key].column] = only.id;
    else selectors[key] = list;
    list.forEach((selector, index) => {
      if (selector.type !== undefined) {
        out.warnings.push(`spec.object.${key}[${index}].type: not a field of Mission Control's resource selector (types is); read as types: [${selector.type}]`);
      }
      for (const field of NOT_EVALUATED) {
        if (selector[field] !== undefined) out.warnings.push(`spec.object.${key}[${index}].${field}: not known for a request here; this selector can deny but never allow`);
      }
    });
  }
  const selected: string[] = [...kinds];
  if (object.views?.length) {
    // duty's ViewRef {id, namespace, name}, evaluated per view (a name may use `*`); a lone `name: '*'` is every view.
    const wildcard = object.views.length === 1 && object.views[0]?.name === '*' && !object.views[0].namespace && !object.views[0].id;
    if (wildcard && kinds.length === 0) out.object = 'views';
    else {
      selectors.views = object.views;
      selected.push('views');
    }
  }
  if (selected.length > 1) {
    out.warnings.push(
      spec.deny
        ? `spec.object: selectors over ${selected.join(' and ')} together are evaluated kind by kind here; the deny applies to each`
        : `spec.object: selectors over ${selected.join(' and ')} together (such as running a playbook on a config) cannot be evaluated here; this permission allows nothing`,
    );
  }
  if (object.scopes?.length) {
    // Kind Scope (scope-kind.ts): expanded by the permission engine when it loads the rows. A reference
    // without a namespace is one in the permission's own.
    selectors.scopes = object.scopes.map((ref) => (ref.id && !ref.name ? ref : { ...ref, namespace: ref.namespace ?? namespace }));
  }
  if (object.plugins?.length) {
    selectors.plugins = object.plugins;
    out.warnings.push('spec.object.plugins: plugins are not part of this console; kept, not evaluated');
  }
  if (Object.keys(selectors).length > 0) out.object_selector = selectors;
  if (object.mcp === true) {
    // Mission Control's global object `mcp` (action mcp:use): here the MCP server is open to every signed-in
    // person, each tool checked against its own resource (docs/MCP.md), so the row covers no resource.
    out.object = 'mcp';
    out.warnings.push('spec.object.mcp: the MCP server (/api/mcp) is open to every signed-in person here, each tool checked against the resource it reads; kept, this permission changes nothing');
  }
  if (object.global) {
    if (out.object_selector || out.object) out.warnings.push('spec.object.global: given together with selectors, the selectors decide; ignored');
    else {
      out.object = object.global;
      if (object.global !== '*' && !isGlobalObject(object.global) && !isResource(object.global)) {
        out.warnings.push(`spec.object.global: "${object.global}" is not an object of this console; this permission covers nothing here`);
      }
    }
  }
  const rowSelectors = (spec.tags && Object.keys(spec.tags).length > 0) || (spec.agents && spec.agents.length > 0);
  if (!out.object && !out.object_selector && !Object.values(OBJECT_KINDS).some(({ column }) => out[column] !== null)) {
    // Mission Control's `object: {}` with tags or agents: every resource carrying them.
    if (rowSelectors) out.object = '*';
    else return { error: 'name what the permission is about: global, configs, components, playbooks, connections, views, scopes or mcp (or give tags or agents)' };
  }
  return out;
}

/** The actions as one permission row stores them, and the ones this console does not know. */
export function actionsOf(spec: PermissionSpec): { action: string; unknown: string[] } {
  const all = [...new Set([...(spec.actions ?? []), ...(spec.action ? [spec.action] : [])].flatMap((item) => item.split(',').map((part) => part.trim())).filter(Boolean))];
  return { action: all.join(','), unknown: all.filter((item) => actionsOfPermission(item).length === 0) };
}
