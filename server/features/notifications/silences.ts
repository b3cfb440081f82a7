import type pg from 'pg';
import { z } from 'zod';
import { celIsTrue, celProblems, celScope, type CelScope } from '../../platform/expressions';
import type { Queryable } from '../../platform/jobs/db';
import { glob } from '../../platform/expressions/shared/k8s';
import { labelsMatch, parseLabelSelector, type Requirement } from '../../platform/label-selector';
import { specResourceKind, type ResourceSource, type SavedSpecResource } from '../../platform/resources';
import { assertSavable, SpecInvalid } from '../../platform/spec-rows';
import { parseDuration } from '../../platform/units';
import type { EventResource } from './resource';
import { resourceName, resourceNamespace } from '../../platform/names';

type Problem = { path: string; message: string };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A time as a silence's from/until takes it: an RFC 3339 time, `now`, `now+2h` / `now-30m`, or a bare
 * duration meaning from now (`2h`). `indefinitely` (until only) is null: no end (spec §4).
 */
export function parseSilenceTime(value: string | null | undefined, now: Date, field: 'from' | 'until'): Date | null | string {
  if (value === null || value === undefined || value === '') return field === 'until' ? null : now;
  const text = value.trim();
  if (field === 'until' && /^indefinitely$/i.test(text)) return null;
  if (/^now$/i.test(text)) return now;
  const relative = /^(?:now\s*)?([+-])?\s*(\d.*)$/i.exec(text);
  if (relative && !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const millis = parseDuration(relative[2] ?? '');
    if (millis !== undefined) return new Date(now.getTime() + (relative[1] === '-' ? -millis : millis));
  }
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) return `${JSON.stringify(value)} is not a time: an RFC 3339 time, now, now+2h${field === 'until' ? ' or indefinitely' : ''}`;
  return time;
}

const selectorSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    types: z.union([z.array(z.string()), z.string().transform((value) => value.split(','))]).optional(),
    statuses: z.union([z.array(z.string()), z.string().transform((value) => value.split(','))]).optional(),
    health: z.string().optional(),
    labelSelector: z.string().optional(),
    tagSelector: z.string().optional(),
    agent: z.string().optional(),
    scope: z.string().optional(),
    cache: z.string().optional(),
    search: z.string().optional(),
    fieldSelector: z.string().optional(),
    limit: z.number().optional(),
    includeDeleted: z.boolean().optional(),
  })
  .strict();
export type SilenceSelector = z.infer<typeof selectorSchema>;

/** What POST /api/notification/silence and `kind: NotificationSilence` both carry. */
export const silenceSchema = z
  .object({
    name: resourceName.optional(),
    namespace: resourceNamespace.default('default'),
    description: z.string().max(10_000).optional().nullable(),
    from: z.string().optional().nullable(),
    until: z.string().optional().nullable(),
    recursive: z.boolean().default(false),
    config_id: z.string().regex(UUID, 'must be a UUID').optional().nullable(),
    check_id: z.string().regex(UUID, 'must be a UUID').optional().nullable(),
    canary_id: z.string().regex(UUID, 'must be a UUID').optional().nullable(),
    component_id: z.string().regex(UUID, 'must be a UUID').optional().nullable(),
    filter: z.string().max(10_000).optional().nullable(),
    selectors: z.array(selectorSchema).max(100).optional().nullable(),
  })
  .strict();
export type SilenceInput = z.infer<typeof silenceSchema>;

const UNRUN_SELECTOR_FIELDS = ['agent', 'scope', 'cache', 'search', 'fieldSelector', 'limit', 'includeDeleted', 'statuses'] as const;

export interface CheckedSilence {
  values: {
    name: string | null;
    namespace: string;
    description: string | null;
    from: Date;
    until: Date | null;
    recursive: boolean;
    config_id: string | null;
    check_id: string | null;
    canary_id: string | null;
    component_id: string | null;
    filter: string | null;
    selectors: SilenceSelector[] | null;
  };
  warnings: string[];
}

/** Checks a silence whole (`prefix` is `body` or `spec`): every problem by path, or the values to store. */
export async function checkSilence(db: Queryable, input: SilenceInput, prefix: string, now = new Date()): Promise<CheckedSilence> {
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const from = parseSilenceTime(input.from, now, 'from');
  const until = parseSilenceTime(input.until, now, 'until');
  if (typeof from === 'string') problems.push({ path: `${prefix}.from`, message: from });
  if (typeof until === 'string') problems.push({ path: `${prefix}.until`, message: until });
  if (from instanceof Date && until instanceof Date && until <= from) problems.push({ path: `${prefix}.until`, message: 'must be after from' });
  const filter = input.filter?.trim() || null;
  if (filter) problems.push(...celProblems(`${prefix}.filter`, filter));
  const selectors = input.selectors && input.selectors.length > 0 ? input.selectors : null;
  selectors?.forEach((selector, index) => {
    for (const key of ['labelSelector', 'tagSelector'] as const) {
      const text = selector[key];
      if (text && !parseLabelSelector(text)) problems.push({ path: `${prefix}.selectors.${index}.${key}`, message: `${JSON.stringify(text)} is not a label selector (app=web,env!=dev)` });
    }
    for (const key of UNRUN_SELECTOR_FIELDS) {
      if (selector[key] !== undefined) warnings.push(`${prefix}.selectors.${index}.${key} is not read by silences here and was ignored`);
    }
  });
  const ids = { config_id: input.config_id || null, check_id: input.check_id || null, canary_id: input.canary_id || null, component_id: input.component_id || null };
  if (!filter && !selectors && !Object.values(ids).some(Boolean)) {
    problems.push({ path: prefix, message: 'a silence needs a resource (config_id, check_id, canary_id or component_id), a filter or selectors' });
  }
  const tables = { config_id: 'config_items', check_id: 'checks', canary_id: 'canaries', component_id: 'components' } as const;
  for (const key of ['config_id', 'check_id', 'canary_id', 'component_id'] as const) {
    const table = tables[key];
    const id = ids[key];
    if (!id) continue;
    const { rows } = await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
    if (rows.length === 0) problems.push({ path: `${prefix}.${key}`, message: `no ${table === 'config_items' ? 'config item' : table.slice(0, -1)} ${id}` });
  }
  // A time that is not one is a problem above.
  if (problems.length > 0 || typeof from === 'string' || typeof until === 'string') throw new SpecInvalid(problems);
  return {
    values: {
      name: input.name ?? null,
      namespace: input.namespace,
      description: input.description?.trim() || null,
      from: from ?? now,
      until,
      recursive: input.recursive,
      ...ids,
      filter,
      selectors,
    },
    warnings,
  };
}

/** Creates (or, for a named silence from a file, replaces) a silence; the row's id. */
export async function saveSilence(client: pg.PoolClient, checked: CheckedSilence, source: ResourceSource | string, createdBy: string | undefined, spec?: Record<string, unknown>): Promise<SavedSpecResource> {
  const { values } = checked;
  const columns = { ...values, selectors: values.selectors ? JSON.stringify(values.selectors) : null, spec: spec ? JSON.stringify(spec) : null, source };
  const names = Object.keys(columns);
  const quoted = names.map((name) => (name === 'from' ? '"from"' : name));
  if (values.name) {
    const found = await client.query<{ id: string; source: string }>('SELECT id, source FROM notification_silences WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE', [values.namespace, values.name]);
    const existing = found.rows[0];
    assertSavable(existing, { noun: 'notification silence', name: values.name, namespace: values.namespace, source: String(source), createOnly: source === 'UI' });
    if (existing) {
      await client.query(`UPDATE notification_silences SET ${quoted.map((name, index) => `${name} = $${index + 2}`).join(', ')} WHERE id = $1`, [existing.id, ...Object.values(columns)]);
      return { id: existing.id, action: 'updated', warnings: checked.warnings };
    }
  }
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO notification_silences (${quoted.join(', ')}, created_by) VALUES (${names.map((_, index) => `$${index + 1}`).join(', ')}, $${names.length + 1}) RETURNING id`,
    [...Object.values(columns), createdBy || null],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('silence insert returned no row');
  return { id, action: 'created', warnings: checked.warnings };
}

const specSchema = silenceSchema.omit({ name: true, namespace: true });
const SPEC_KEYS = new Set(Object.keys(specSchema.shape));

/**
 * A NotificationSilence spec as our schema reads it: YAML dates as RFC 3339 text, the older `matcher`
 * (gval over `.config.type`) as the CEL `filter` it means, and any other unknown key left out with a warning.
 */
function readSilenceSpec(spec: Record<string, unknown>): { spec: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'matcher' && typeof value === 'string' && spec.filter === undefined) {
      out.filter = value.replace(/(^|[^\w.\])])\.(?=[A-Za-z_])/g, '$1');
      warnings.push('spec.matcher is the older form of spec.filter: read as the CEL filter');
    } else if (SPEC_KEYS.has(key)) out[key] = value instanceof Date ? value.toISOString() : value;
    else warnings.push(`spec.${key} is not read by this console and was ignored`);
  }
  return { spec: out, warnings };
}

/** `kind: NotificationSilence` (mission-control.flanksource.com/v1). */
export const notificationSilenceKind = specResourceKind({
  kind: 'NotificationSilence',
  apiVersions: ['mission-control.flanksource.com/v1'],
  problems: (raw) => {
    const parsed = specSchema.safeParse(readSilenceSpec(raw).spec);
    return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: ['spec', ...issue.path.map(String)].join('.'), message: issue.message }));
  },
  async save(client, input) {
    const read = readSilenceSpec(input.spec);
    const spec = specSchema.parse(read.spec);
    const checked = await checkSilence(client, { ...spec, name: input.name, namespace: input.namespace }, 'spec');
    checked.warnings.unshift(...read.warnings);
    return saveSilence(client, checked, input.source, undefined, input.spec);
  },
});

// ── Matching ──────────────────────────────────────────────────────────────────────────────────────────

export interface ActiveSilence {
  id: string;
  label: string;
  from: number;
  until: number | null;
  recursive: boolean;
  config_id: string | null;
  check_id: string | null;
  canary_id: string | null;
  component_id: string | null;
  filter: string | null;
  selectors: Array<SilenceSelector & { labels?: Requirement[]; tags?: Requirement[] }> | null;
}

/** A stored silence as matching reads it. */
type SilenceRow = Omit<CheckedSilence['values'], 'namespace'> & { id: string };

export function toActive(row: SilenceRow): ActiveSilence {
  return {
    id: row.id,
    label: row.name || row.description || row.id,
    from: new Date(row.from).getTime(),
    until: row.until ? new Date(row.until).getTime() : null,
    recursive: row.recursive,
    config_id: row.config_id,
    check_id: row.check_id,
    canary_id: row.canary_id,
    component_id: row.component_id,
    filter: row.filter,
    selectors: row.selectors?.map((selector) => ({
      ...selector,
      ...(selector.labelSelector ? { labels: parseLabelSelector(selector.labelSelector) ?? [] } : {}),
      ...(selector.tagSelector ? { tags: parseLabelSelector(selector.tagSelector) ?? [] } : {}),
    })) ?? null,
  };
}

export const SILENCE_COLUMNS = 'id, name, description, "from", until, recursive, config_id, check_id, canary_id, component_id, filter, selectors';

/** Silences not deleted and not over (from may be ahead: they start while cached). */
export async function loadActiveSilences(db: Queryable): Promise<ActiveSilence[]> {
  const { rows } = await db.query<SilenceRow>(`SELECT ${SILENCE_COLUMNS} FROM notification_silences WHERE deleted_at IS NULL AND (until IS NULL OR until > now()) AND organization_id IS NOT DISTINCT FROM current_organization()`);
  return rows.map(toActive);
}


function selectorMatches(selector: NonNullable<ActiveSilence['selectors']>[number], resource: EventResource): boolean {
  if (selector.id && selector.id !== resource.id) return false;
  if (selector.name && !selector.name.split(',').some((name) => glob(name.trim(), resource.name))) return false;
  if (selector.namespace && selector.namespace !== (resource.namespace ?? '')) return false;
  if (selector.types && selector.types.length > 0 && !selector.types.some((type) => glob(type.trim(), resource.type ?? ''))) return false;
  if (selector.health && !selector.health.split(',').map((health) => health.trim().toLowerCase()).includes((resource.health ?? '').toLowerCase())) return false;
  if (selector.labels && !labelsMatch(selector.labels, resource.labels)) return false;
  if (selector.tags && !labelsMatch(selector.tags, resource.tags)) return false;
  return true;
}

/**
 * Whether one silence covers the resource at `now`: every criterion it sets must hold. A filter that fails to
 * evaluate (it reads a variable this event has not) does not match. `scope` is the resource's env already in
 * CEL's types, shared by every silence tried for one event.
 */
export function silenceMatches(silence: ActiveSilence, resource: EventResource, now: number, scope?: () => CelScope): boolean {
  if (silence.from > now || (silence.until !== null && silence.until <= now)) return false;
  const own = (id: string | null, kind: EventResource['kind']) => id === null || (resource.kind === kind && (id === resource.id || (silence.recursive && resource.ancestors.includes(id))));
  if (!own(silence.config_id, 'config') || !own(silence.component_id, 'component') || !own(silence.check_id, 'check')) return false;
  if (silence.canary_id !== null && !(resource.kind === 'check' && resource.canaryId === silence.canary_id)) return false;
  if (silence.selectors && !silence.selectors.some((selector) => selectorMatches(selector, resource))) return false;
  if (silence.filter && !celIsTrue(silence.filter, scope ? scope() : celScope(resource.env))) return false;
  return true;
}

/**
 * The active silences in memory, indexed by the resource they name so an event is checked against the few
 * that can match it plus those with only a filter or selectors. Reloaded on change (NOTIFY) by the engine.
 */
export class SilenceIndex {
  private readonly byId = new Map<string, ActiveSilence[]>();
  private readonly open: ActiveSilence[] = [];
  readonly size: number;

  constructor(silences: readonly ActiveSilence[]) {
    this.size = silences.length;
    for (const silence of silences) {
      const id = silence.recursive ? null : (silence.check_id ?? silence.config_id ?? silence.component_id ?? silence.canary_id);
      if (id) {
        const list = this.byId.get(id) ?? [];
        list.push(silence);
        this.byId.set(id, list);
      } else this.open.push(silence);
    }
  }

  /** The first silence that covers the resource now, if any. */
  match(resource: EventResource, now = Date.now()): ActiveSilence | undefined {
    let prepared: CelScope | undefined;
    const scope = () => (prepared ??= celScope(resource.env));
    for (const id of [resource.id, resource.canaryId]) {
      if (!id) continue;
      const found = this.byId.get(id)?.find((silence) => silenceMatches(silence, resource, now, scope));
      if (found) return found;
    }
    return this.open.find((silence) => silenceMatches(silence, resource, now, scope));
  }
}
