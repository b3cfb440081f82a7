import { isOneOf } from './guards';
/**
 * Roles, resources and actions of spec §6, and the token scopes of spec §4 and §6. The server decides
 * every request with these tables; the console reads the same tables to hide what the server would refuse.
 */

/** Spec §6 roles. */
export const ROLES = ['admin', 'editor', 'viewer', 'guest', 'commander', 'responder'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

/** The RBAC resources of spec §6 (feature_flags is the resource of the `properties` table). */
export const RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'feature_flags',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
  'permissions',
  'views',
  // Capabilities (DESIGN §9, docs/SECURITY.md): what runs code, reads server files or uses secrets.
  'exec',
  'javascript',
  'server_files',
  'connection_use',
  'sql',
  'auth_settings',
  'agent_tokens',
] as const;
export type Resource = (typeof RESOURCES)[number];

/**
 * Capabilities: named permissions for what can take over the server or read what the author could not
 * (docs/SECURITY.md). Only admins hold them by role; an admin grants one to a person, team or group with a
 * permission whose object is the capability and whose action is `*` (or `create`); an API token uses them
 * only when its scopes write every object (the Write and Admin presets). A spec that uses one is refused at
 * save for an author without it, and not run when its last author no longer holds it.
 */
export const CAPABILITIES = ['exec', 'javascript', 'server_files', 'connection_use', 'sql', 'auth_settings', 'agent_tokens'] as const satisfies readonly Resource[];
export type Capability = (typeof CAPABILITIES)[number];

export const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  exec: 'run code on the server (exec checks, exec actions, exec scrapers)',
  javascript: 'run javascript (tests, displays, transforms)',
  server_files: "read files on the server's disk (log backends, folder and junit checks, file scrapers)",
  connection_use: 'use a stored connection, secret or config map by reference',
  sql: 'run SQL through a connection (view sql queries, playbook sql actions, sql scrapers)',
  auth_settings: 'change sign-in and identity settings (auth.* properties)',
  agent_tokens: 'mint or rotate agent tokens',
};

export function isCapability(value: unknown): value is Capability {
  return CAPABILITIES.some((capability) => capability === value);
}

/** The action a capability is checked with: a permission granting `create` (or `*`) on it grants it. */
export const CAPABILITY_ACTION = 'create' as const;

export function isResource(value: unknown): value is Resource {
  return RESOURCES.some((resource) => resource === value);
}

/** What a request does to a resource. Roles grant `read` or every write action at once ('write'). */
export const ACTIONS = ['read', 'create', 'update', 'delete', 'playbook:run', 'playbook:approve'] as const;
export type Action = (typeof ACTIONS)[number];
export const WRITE_ACTIONS: readonly Action[] = ['create', 'update', 'delete', 'playbook:run', 'playbook:approve'];

export function isAction(value: unknown): value is Action {
  return ACTIONS.some((action) => action === value);
}

export type Level = 'read' | 'write';

/** Spec §6, role by role: which resources each role may read and write. */
const EXCEPT_ADMIN_ONLY = (resource: Resource) => resource !== 'connections' && resource !== 'identities' && resource !== 'rbac' && !isCapability(resource);
const RESPONDER_WRITES: readonly Resource[] = ['responder', 'incident', 'evidences', 'comments'];

export function roleGrants(role: Role, resource: Resource, level: Level): boolean {
  switch (role) {
    case 'admin':
      return true;
    case 'editor':
      return EXCEPT_ADMIN_ONLY(resource);
    case 'commander':
    case 'responder':
      return level === 'read' ? EXCEPT_ADMIN_ONLY(resource) : RESPONDER_WRITES.includes(resource);
    case 'viewer':
    case 'guest':
      return level === 'read' && EXCEPT_ADMIN_ONLY(resource);
  }
}

export function levelOf(action: Action): Level {
  return action === 'read' ? 'read' : 'write';
}

/** True when any of the roles grants the action on the resource. */
export function rolesAllow(roles: readonly Role[], resource: Resource, action: Action): boolean {
  return roles.some((role) => roleGrants(role, resource, levelOf(action)));
}

export const isAdmin = (roles: readonly string[]): boolean => roles.includes('admin');
/** Spec §6: isViewer is true for viewer or guest. */
export const isViewer = (roles: readonly string[]): boolean => roles.includes('viewer') || roles.includes('guest');

/**
 * Global object areas a permission row may name (spec §6), and the RBAC resources each one covers. A
 * permission may also name an RBAC resource directly (object 'incident').
 */
export const GLOBAL_OBJECTS = {
  canaries: ['canaries'],
  catalog: ['config_scrapers'],
  topology: ['topologies'],
  playbooks: ['playbooks', 'playbook_runs'],
  connection: ['connections'],
  'connection-detail': ['connections'],
  'agent-push': [],
  'kubernetes-proxy': [],
  notification: ['notifications'],
  rbac: ['rbac', 'permissions'],
  logs: ['logging_backends'],
  agent: ['agents'],
  artifact: [],
} as const satisfies Record<string, readonly Resource[]>;
export type GlobalObject = keyof typeof GLOBAL_OBJECTS;

export function isGlobalObject(value: string): value is GlobalObject {
  return Object.hasOwn(GLOBAL_OBJECTS, value);
}
export const GLOBAL_OBJECT_NAMES: readonly GlobalObject[] = Object.keys(GLOBAL_OBJECTS).filter(isGlobalObject);

/** Every name a permission's `object` may take: a global area or an RBAC resource. */
export const PERMISSION_OBJECTS: readonly string[] = [...new Set<string>([...GLOBAL_OBJECT_NAMES, ...RESOURCES])].sort();

/** The resources a permission object covers ('*' covers all). */
export function resourcesOfObject(object: string): readonly Resource[] {
  if (object === '*') return RESOURCES;
  if (isGlobalObject(object)) return GLOBAL_OBJECTS[object];
  return isResource(object) ? [object] : [];
}

/**
 * Permission actions (spec §6): read, create, update, delete, '*', or a comma list such as
 * 'create,read,update,delete'; for playbooks also playbook:run, playbook:approve and playbook:*.
 */
export function actionsOfPermission(action: string): readonly Action[] {
  const out = new Set<Action>();
  for (const part of action.split(',').map((item) => item.trim())) {
    if (part === '*') ACTIONS.forEach((item) => out.add(item));
    else if (part === 'playbook:*') {
      out.add('playbook:run');
      out.add('playbook:approve');
    } else if (isAction(part)) out.add(part);
  }
  return [...out];
}

/** Permission subject kinds (spec §3) and the roles a 'group' subject may name (spec §6). */
export const SUBJECT_TYPES = ['person', 'team', 'group', 'notification', 'playbook'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** Permission actions offered by the editor (spec §6). */
export const PERMISSION_ACTIONS = ['read', 'update', 'create', 'delete', '*', 'create,read,update,delete', 'playbook:run', 'playbook:approve', 'playbook:*'] as const;

// ---------------------------------------------------------------------------------------------------
// API tokens (spec §3 Token, §4 Token dialog, §6 token scopes)

/** Token scope objects (spec §6). */
export const TOKEN_OBJECTS = ['mcp', 'canaries', 'catalog', 'application', 'playbooks', 'notification'] as const;
export type TokenObject = (typeof TOKEN_OBJECTS)[number];
export type TokenAction = 'read' | 'create' | 'update' | 'delete' | 'playbook:run' | 'playbook:approve' | '*';

/**
 * Token objects the platform grants itself and the token dialog never offers (spec §6 global object
 * areas): `agent-push` is the one scope of an agent's token (POST /api/agent/generate), which lets the
 * agent push to /api/agent/push and reaches nothing else (tokenAllows grants it no resource).
 */
export const INTERNAL_TOKEN_OBJECTS = ['agent-push'] as const;
export type InternalTokenObject = (typeof INTERNAL_TOKEN_OBJECTS)[number];
export const AGENT_PUSH_SCOPE = { subject: '', object: 'agent-push', action: '*' } as const satisfies TokenScope;

export interface TokenScope {
  /** Always empty in what the console sends (spec §3). */
  subject?: string;
  object: TokenObject | InternalTokenObject;
  action: TokenAction;
}

/** True when the scopes include the agent-push scope (any action of it). */
export function hasAgentPushScope(scopes: readonly Pick<TokenScope, 'object'>[]): boolean {
  return scopes.some((scope) => scope.object === 'agent-push');
}

/** The actions each object offers: mcp has only '*'; playbooks adds run and approve. */
export function tokenActionsOf(object: TokenObject): readonly TokenAction[] {
  if (object === 'mcp') return ['*'];
  if (object === 'playbooks') return ['read', 'create', 'update', 'delete', 'playbook:run', 'playbook:approve'];
  return ['read', 'create', 'update', 'delete'];
}

/** The RBAC resources a token object stands for. */
export const TOKEN_OBJECT_RESOURCES: Record<'canaries' | 'catalog' | 'application' | 'playbooks' | 'notification', readonly Resource[]> = {
  canaries: ['canaries'],
  catalog: ['config_scrapers'],
  application: ['views'],
  playbooks: ['playbooks', 'playbook_runs'],
  notification: ['notifications'],
};

/** 'object:action' keys of the token form (spec §3: objectActions). */
export type ObjectActionKey = `${TokenObject | InternalTokenObject}:${TokenAction}`;

export function scopeKey(scope: Pick<TokenScope, 'object' | 'action'>): ObjectActionKey {
  return `${scope.object}:${scope.action}`;
}

/** Per-object levels of the token dialog (spec §4). */
export const OBJECT_LEVELS = {
  None: [],
  Read: ['read'],
  Write: ['read', 'create'],
  Admin: ['read', 'create', 'update', 'delete'],
} as const satisfies Record<string, readonly TokenAction[]>;
export const PLAYBOOK_LEVELS = {
  None: [],
  Read: ['read'],
  Run: ['read', 'playbook:run'],
  Approve: ['read', 'playbook:run', 'playbook:approve'],
  Write: ['read', 'playbook:run', 'playbook:approve', 'create', 'delete'],
} as const satisfies Record<string, readonly TokenAction[]>;
export const MCP_LEVELS = { None: [], Admin: ['*'] } as const satisfies Record<string, readonly TokenAction[]>;

export const TOKEN_PRESETS = ['Read', 'Write', 'Admin', 'Custom'] as const;
export type TokenPreset = (typeof TOKEN_PRESETS)[number];

/** Spec §6: Read grants read on all objects (and mcp:*); Write grants read and create (and mcp:*); Admin grants every action. */
export function presetScopes(preset: Exclude<TokenPreset, 'Custom'>): TokenScope[] {
  const scopes: TokenScope[] = [{ subject: '', object: 'mcp', action: '*' }];
  for (const object of TOKEN_OBJECTS) {
    if (object === 'mcp') continue;
    const actions: readonly TokenAction[] =
      preset === 'Read' ? ['read'] : preset === 'Write' ? ['read', 'create'] : tokenActionsOf(object);
    for (const action of actions) scopes.push({ subject: '', object, action });
  }
  return scopes;
}

type ResourceTokenObject = Exclude<TokenObject, 'mcp'>;
const RESOURCE_TOKEN_OBJECTS: readonly ResourceTokenObject[] = ['canaries', 'catalog', 'application', 'playbooks', 'notification'];

function tokenGrants(scopes: readonly TokenScope[], object: ResourceTokenObject, action: Action): boolean {
  return scopes.some((scope) => scope.object === object && (scope.action === '*' || scope.action === action));
}

/**
 * What a token's scopes allow on an RBAC resource. A resource that a token object stands for needs that
 * object's action. Resources outside every token object (job history, incidents, …) are allowed an action
 * only when the token grants it on every token object, so the Read, Write and Admin presets reach the
 * whole console while a custom scope reaches only what it names.
 */
export function tokenAllows(scopes: readonly TokenScope[], resource: Resource, action: Action): boolean {
  const objects = RESOURCE_TOKEN_OBJECTS.filter((object) => TOKEN_OBJECT_RESOURCES[object].includes(resource));
  if (objects.length > 0) return objects.some((object) => tokenGrants(scopes, object, action));
  const checked: readonly ResourceTokenObject[] = action === 'playbook:run' || action === 'playbook:approve' ? ['playbooks'] : RESOURCE_TOKEN_OBJECTS;
  return checked.every((object) => tokenGrants(scopes, object, action));
}

export function isTokenScope(value: unknown): value is TokenScope {
  if (!value || typeof value !== 'object') return false;
  const object: unknown = Reflect.get(value, 'object');
  const action: unknown = Reflect.get(value, 'action');
  if (object === 'agent-push') return action === '*';
  const tokenObject = TOKEN_OBJECTS.find((item) => item === object);
  return tokenObject !== undefined && tokenActionsOf(tokenObject).some((item) => item === action);
}

// ---------------------------------------------------------------------------------------------------
// What whoami tells the console

/** The effective access of the signed-in user: for each resource, the actions the server would allow. */
export type AccessMap = Partial<Record<Resource, Action[]>>;

/** The console's check, the same question the server answers (the server remains the judge). */
export function canAccess(access: AccessMap, resource: Resource, action: Action | 'write'): boolean {
  const actions = access[resource] ?? [];
  if (action === 'write') return actions.some((item) => item !== 'read');
  return actions.includes(action);
}

// ---------------------------------------------------------------------------------------------------
// Health checks

/** Spec §6: 'Run Now' is shown only to admin, editor, responder and commander. */
export const RUN_NOW_ROLES: readonly Role[] = ['admin', 'editor', 'responder', 'commander'];

/**
 * Who may run a check now: the roles above, or anyone whose permissions let them update canaries. The
 * server asks this; the console asks the same of whoami's roles and permissions.
 */
export function canRunChecks(roles: readonly string[], access: AccessMap): boolean {
  return roles.some((role) => isOneOf(RUN_NOW_ROLES, role)) || canAccess(access, 'canaries', 'update');
}
