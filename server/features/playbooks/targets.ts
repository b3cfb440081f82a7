import { celIsTrue, celScope } from '../../platform/expressions';
import { matcherOf, matchTarget } from '../../platform/auth/object-selector';
import type { AccessTarget } from '../../platform/auth/types';
import { isRecord } from '../../platform/errors';
import type { Queryable } from '../../platform/jobs/db';
import type { PlaybookSpec, ResourceSelectorSpec } from './spec';

/** What a playbook can run on: a config item, a component or a check (or nothing, for a playbook with no selectors). */
export type TargetKind = 'config' | 'component' | 'check';

export interface RunTarget {
  kind: TargetKind;
  id: string;
  /** The row as templates see it (`.config`, `.component`, `.check`): every column, `config` parsed. */
  row: Record<string, unknown>;
}

const TABLES: Record<TargetKind, string> = { config: 'config_items', component: 'components', check: 'checks' };
const SELECTOR_KEY: Record<TargetKind, 'configs' | 'components' | 'checks'> = { config: 'configs', component: 'components', check: 'checks' };

/** The one target of a request (`config_id`, `component_id` or `check_id`), or undefined for none. */
export function targetOf(request: { config_id?: string | null | undefined; component_id?: string | null | undefined; check_id?: string | null | undefined }): { kind: TargetKind; id: string } | undefined {
  if (request.config_id) return { kind: 'config', id: request.config_id };
  if (request.component_id) return { kind: 'component', id: request.component_id };
  if (request.check_id) return { kind: 'check', id: request.check_id };
  return undefined;
}

/** Loads a live target row, or undefined when there is none. */
export async function loadTarget(db: Queryable, kind: TargetKind, id: string): Promise<RunTarget | undefined> {
  const { rows } = await db.query<{ row: Record<string, unknown> }>(`SELECT to_jsonb(t) AS row FROM ${TABLES[kind]} t WHERE t.id = $1 AND t.deleted_at IS NULL`, [id]);
  const row = rows[0]?.row;
  if (!row) return undefined;
  if (typeof row.config === 'string') {
    try {
      row.config = JSON.parse(row.config);
    } catch {
      // Kept as text.
    }
  }
  return { kind, id, row };
}

function stringMap(value: unknown): Record<string, string> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)])) : {};
}

/** Whether one selector (ResourceSelector, or the older {type, tags} filter) selects the target. */
export function selectorSelects(selector: ResourceSelectorSpec, target: RunTarget): boolean {
  const row = target.row;
  const { type, tags, health, statuses, search, scope, cache, ...rest } = selector;
  void scope;
  void cache;
  const types = rest.types ?? (type ? [type] : undefined);
  const matcher = matcherOf({ ...rest, ...(types ? { types } : {}) });
  const access: AccessTarget = {
    kind: target.kind === 'check' ? 'canary' : target.kind,
    id: target.id,
    ...(typeof row.name === 'string' ? { name: row.name } : {}),
    ...(typeof row.namespace === 'string' ? { namespace: row.namespace } : {}),
    ...(typeof row.type === 'string' ? { type: row.type } : {}),
    labels: stringMap(row.labels),
    tags: stringMap(row.tags),
    ...(typeof row.agent_id === 'string' ? { agent: row.agent_id } : {}),
  };
  if (matchTarget(matcher, access) !== 'match') return false;
  if (tags && !Object.entries(tags).every(([key, value]) => stringMap(row.tags)[key] === value || stringMap(row.labels)[key] === value)) return false;
  if (health && !health.split(',').map((item) => item.trim().toLowerCase()).includes(String(row.health ?? '').toLowerCase())) return false;
  if (statuses?.length && !statuses.map((item) => item.toLowerCase()).includes(String(row.status ?? '').toLowerCase())) return false;
  if (search && !String(row.name ?? '').toLowerCase().includes(search.toLowerCase())) return false;
  return true;
}

/** The selectors of a playbook for a target kind (spec.configs, spec.components, spec.checks). */
export function selectorsFor(spec: PlaybookSpec, kind: TargetKind): ResourceSelectorSpec[] | undefined {
  return spec[SELECTOR_KEY[kind]];
}

/** A playbook without any selector runs on nothing in particular (it is run from /playbooks). */
export function needsTarget(spec: PlaybookSpec): boolean {
  return Boolean(spec.configs?.length || spec.components?.length || spec.checks?.length);
}

/**
 * Why a playbook may not run on the target, or undefined when it may: the selectors of the target's kind
 * (one must select it) and then every `filters` CEL expression over it.
 */
export function exclusionOf(spec: PlaybookSpec, target: RunTarget | undefined): string | undefined {
  if (!target) return needsTarget(spec) ? 'this playbook runs on a resource: give config_id, component_id or check_id' : undefined;
  const selectors = selectorsFor(spec, target.kind);
  if (!selectors?.length) return `this playbook does not run on ${target.kind === 'config' ? 'config items' : `${target.kind}s`}`;
  if (!selectors.some((selector) => selectorSelects(selector, target))) return `its ${SELECTOR_KEY[target.kind]} selectors do not select this ${target.kind}`;
  if (spec.filters?.length) {
    const scope = celScope({ [target.kind]: target.row });
    const failed = spec.filters.findIndex((filter) => !celIsTrue(filter, scope));
    if (failed >= 0) return `spec.filters[${failed}] is not true for this ${target.kind}`;
  }
  return undefined;
}
