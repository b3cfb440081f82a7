import { z } from 'zod';
import { isRecord } from '../../platform/errors';
import { parseLabelSelector } from '../../platform/label-selector';
import type { ResourceKind } from '../../platform/resources';
import { metadataSchema } from './permission-kind';
import { isOneOf } from '../../../common/guards';

/** Mission Control's ScopeTarget keys: each target names exactly one. */
export const SCOPE_TARGET_KEYS = ['config', 'component', 'playbook', 'canary', 'view', 'global'] as const;
/** ScopeResourceSelector's fields. */
const SELECTOR_FIELDS = ['agent', 'namespace', 'name', 'tagSelector'] as const;

const scopeDocument = z.object({
  apiVersion: z.string(),
  kind: z.literal('Scope'),
  metadata: metadataSchema,
  spec: z
    .object({
      description: z.string({ message: 'must be text' }).max(2000).optional(),
      targets: z
        .array(z.record(z.string(), z.unknown()), { message: 'must be a list of targets (config, component, playbook, canary, view or global)' })
        .min(1, 'is required: at least one target')
        .max(10, 'has at most 10 targets'),
    })
    .catchall(z.unknown()),
});
type ScopeDocument = z.infer<typeof scopeDocument>;

interface Checked {
  targets: Array<Record<string, Record<string, string>>>;
  problems: string[];
  warnings: string[];
}

/**
 * Each target as Mission Control's CRD checks it (exactly one of config, component, playbook, canary, view,
 * global; a selector of text fields, tagSelector a label selector), fields it does not have warned and left out.
 */
function checkTargets(targets: ScopeDocument['spec']['targets']): Checked {
  const out: Checked = { targets: [], problems: [], warnings: [] };
  targets.forEach((target, index) => {
    const at = `spec.targets[${index}]`;
    const known = SCOPE_TARGET_KEYS.filter((key) => target[key] !== undefined && target[key] !== null);
    for (const key of Object.keys(target).filter((key) => !isOneOf(SCOPE_TARGET_KEYS, key))) {
      out.warnings.push(`${at}.${key}: not a target of Mission Control's Scope (one of ${SCOPE_TARGET_KEYS.join(', ')}); ignored`);
    }
    if (known.length !== 1) {
      out.problems.push(`${at}: exactly one of ${SCOPE_TARGET_KEYS.join(', ')} must be given${known.length > 1 ? ` (found ${known.join(' and ')})` : ''}`);
      return;
    }
    const key = known[0] ?? 'global';
    const raw = target[key];
    if (!isRecord(raw)) {
      out.problems.push(`${at}.${key}: must be a selector (agent, namespace, name, tagSelector)`);
      return;
    }
    const selector: Record<string, string> = {};
    for (const [field, value] of Object.entries(raw)) {
      if (!isOneOf(SELECTOR_FIELDS, field)) {
        out.warnings.push(`${at}.${key}.${field}: not a field of a Scope selector (one of ${SELECTOR_FIELDS.join(', ')}); ignored`);
        continue;
      }
      if (value === undefined || value === null || value === '') continue;
      if (typeof value !== 'string') {
        out.problems.push(`${at}.${key}.${field}: must be text`);
        continue;
      }
      if (field === 'tagSelector' && parseLabelSelector(value) === undefined) {
        out.problems.push(`${at}.${key}.tagSelector: is not a label selector (such as "env=prod,region=us-west")`);
        continue;
      }
      selector[field] = value;
    }
    if (selector.name && selector.name !== '*' && selector.name.includes('*')) {
      out.warnings.push(`${at}.${key}.name: Mission Control matches "${selector.name}" as a literal name (only "*" alone is a wildcard); here * matches any text`);
    }
    if ((key === 'view' || key === 'playbook') && (selector.agent || selector.tagSelector)) {
      out.warnings.push(`${at}.${key}: ${key}s carry no agent or tags here, so this target selects no ${key}`);
    }
    out.targets.push({ [key]: selector });
  });
  return out;
}

/**
 * `kind: Scope` (mission-control.flanksource.com/v1): named targets a Permission's object names in
 * `scopes: [{namespace, name}]`. The permission engine expands them when it loads the permission rows (any
 * target may select a resource; a global target stands for configs, components, playbooks, canaries and
 * views), so applying, changing or deleting a scope reaches the next request. Found again by namespace and
 * name: applying the same document updates it.
 */
export const scopeKind: ResourceKind<ScopeDocument> = {
  kind: 'Scope',
  apiVersions: ['mission-control.flanksource.com/v1'],
  schema: scopeDocument,
  async apply(doc, { client, source, actor }) {
    const { name } = doc.metadata;
    const namespace = doc.metadata.namespace ?? 'default';
    const checked = checkTargets(doc.spec.targets);
    if (checked.problems.length > 0) throw new Error(checked.problems.join('; '));
    const warnings = [...checked.warnings];
    for (const key of Object.keys(doc.spec).filter((key) => key !== 'description' && key !== 'targets')) {
      warnings.push(`spec.${key}: not a field of Mission Control's Scope (description, targets); ignored`);
    }
    const values = [doc.spec.description ?? null, JSON.stringify(doc.metadata.labels ?? {}), JSON.stringify(checked.targets), source];
    // jsonb equality: the same document applied again is 'unchanged' whatever the key order.
    const found = await client.query<{ id: string; same: boolean }>(
      `SELECT id, (description IS NOT DISTINCT FROM $3 AND labels = $4::jsonb AND targets = $5::jsonb AND source = $6) AS same
         FROM scopes WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE`,
      [namespace, name, ...values],
    );
    const existing = found.rows[0];
    let id: string | undefined;
    let action: 'created' | 'updated' | 'unchanged' = 'created';
    if (existing) {
      id = existing.id;
      action = existing.same ? 'unchanged' : 'updated';
      if (!existing.same) await client.query('UPDATE scopes SET (description, labels, targets, source) = ($2, $3, $4, $5) WHERE id = $1', [existing.id, ...values]);
    } else {
      const inserted = await client.query<{ id: string }>(
        'INSERT INTO scopes (name, namespace, description, labels, targets, source, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
        [name, namespace, ...values, actor?.id ?? null],
      );
      id = inserted.rows[0]?.id;
    }
    if (!id) throw new Error('scope insert returned no row');
    return { action, id, name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};
