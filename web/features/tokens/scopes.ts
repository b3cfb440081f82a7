import {
  MCP_LEVELS,
  OBJECT_LEVELS,
  PLAYBOOK_LEVELS,
  presetScopes,
  scopeKey,
  TOKEN_OBJECTS,
  tokenActionsOf,
  type ObjectActionKey,
  type TokenAction,
  type TokenObject,
  type TokenPreset,
  type TokenScope,
} from '@common/rbac';

/** Spec §3 Token form values: objectActions maps 'object:action' to whether the token gets it. */
export type ObjectActions = Partial<Record<ObjectActionKey, boolean>>;

/** Every 'object:action' pair a token can carry, in the order the dialog and the summaries use. */
export const ALL_SCOPES: readonly Pick<TokenScope, 'object' | 'action'>[] = TOKEN_OBJECTS.flatMap((object) => tokenActionsOf(object).map((action) => ({ object, action })));

/** Every flag off. */
export function noObjectActions(): ObjectActions {
  const out: ObjectActions = {};
  for (const scope of ALL_SCOPES) out[scopeKey(scope)] = false;
  return out;
}

function withScopes(scopes: readonly Pick<TokenScope, 'object' | 'action'>[]): ObjectActions {
  const out = noObjectActions();
  for (const scope of scopes) out[scopeKey(scope)] = true;
  return out;
}

/** Spec §4: choosing a preset resets all flags and applies it (Custom applies nothing). */
export function presetObjectActions(preset: TokenPreset): ObjectActions {
  return preset === 'Custom' ? noObjectActions() : withScopes(presetScopes(preset));
}

/** The scopes the create call sends (spec §3: subject is empty), in a stable order. */
export function scopesOf(objectActions: ObjectActions): TokenScope[] {
  return ALL_SCOPES.filter((scope) => objectActions[scopeKey(scope)] === true).map(({ object, action }) => ({ subject: '', object, action }));
}

/** The level lists of spec §4, per object: playbooks and mcp have their own. */
export type LevelTable = Readonly<Record<string, readonly TokenAction[]>>;
export function levelsOf(object: TokenObject): LevelTable {
  if (object === 'mcp') return MCP_LEVELS;
  if (object === 'playbooks') return PLAYBOOK_LEVELS;
  return OBJECT_LEVELS;
}

/** The actions the flags grant on one object. */
export function actionsOn(objectActions: ObjectActions, object: TokenObject): TokenAction[] {
  return tokenActionsOf(object).filter((action) => objectActions[scopeKey({ object, action })] === true);
}

/**
 * The level whose actions are exactly the object's flags, or undefined for a mixture no level names
 * (the Admin preset's playbooks: every action, update included, which Write does not have).
 */
export function levelOf(objectActions: ObjectActions, object: TokenObject): string | undefined {
  const granted = actionsOn(objectActions, object);
  return Object.entries(levelsOf(object)).find(([, actions]) => actions.length === granted.length && actions.every((action) => granted.includes(action)))?.[0];
}

/** Sets one object to a level: its other flags go off, the level's actions go on. */
export function applyLevel(objectActions: ObjectActions, object: TokenObject, level: string): ObjectActions {
  const actions = levelsOf(object)[level];
  if (!actions) return objectActions;
  const out: ObjectActions = { ...objectActions };
  for (const action of tokenActionsOf(object)) out[scopeKey({ object, action })] = actions.includes(action);
  return out;
}

/** Short action names for summaries: 'playbook:run' reads 'run', '*' (MCP's only action) 'all'. */
export function actionLabel(action: string): string {
  if (action === '*') return 'all';
  return action.startsWith('playbook:') ? action.slice('playbook:'.length) : action;
}

/** What the flags grant on one object, under its level in the dialog: 'read, create'; MCP's '*' is the endpoint itself. */
export function grantedText(object: TokenObject, granted: readonly TokenAction[]): string {
  if (granted.length === 0) return 'no access';
  if (object === 'mcp') return 'use the MCP endpoint';
  return granted.map(actionLabel).join(', ');
}

/** A compact summary of scopes, e.g. 'canaries: read, create · playbooks: run'. */
export function scopeSummary(scopes: readonly Pick<TokenScope, 'object' | 'action'>[]): string {
  return TOKEN_OBJECTS.map((object) => {
    const actions = tokenActionsOf(object).filter((action) => scopes.some((scope) => scope.object === object && scope.action === action));
    return actions.length > 0 ? `${object}: ${actions.map(actionLabel).join(', ')}` : '';
  })
    .filter(Boolean)
    .join(' · ');
}
