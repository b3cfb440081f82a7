import { specDocumentSchema, type ResourceKind, type SpecDocument } from '../../platform/resources';
import { isOneOf } from '../../../common/guards';

/** Mission Control's PluginSpec fields (api/v1 plugin_types.go): read and kept, none is run here. */
const PLUGIN_FIELDS = ['source', 'address', 'hostGRPCAddress', 'caCert', 'version', 'checksum', 'selector', 'connections', 'audit', 'properties'] as const;

const TEXT_FIELDS = ['source', 'address', 'hostGRPCAddress', 'caCert', 'version', 'checksum'] as const;

/** What Mission Control's CRD refuses: a plugin is installed from a source or reached at an address; text fields are text. */
function pluginProblems(spec: Record<string, unknown>): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const field of TEXT_FIELDS) {
    if (spec[field] !== undefined && spec[field] !== null && typeof spec[field] !== 'string') problems.push({ path: `spec.${field}`, message: 'must be text' });
  }
  const given = (field: string) => typeof spec[field] === 'string' && spec[field].trim() !== '';
  if (!given('source') && !given('address')) problems.push({ path: 'spec.source', message: 'is required (or spec.address for a remote plugin)' });
  return problems;
}

const pluginDocument = specDocumentSchema('Plugin', pluginProblems);
type PluginDocument = SpecDocument;

/** The warning every Plugin document gets: it is stored, never run. */
export const PLUGIN_NOT_RUN = 'kind Plugin: plugins are not run here: nothing is installed or dialled, no tab or operation is offered and no invocation is audited; stored as written';

/**
 * `kind: Plugin` (mission-control.flanksource.com/v1): a plugin binary Mission Control installs and
 * supervises. This console runs none: the document is stored (so the cluster's set of resources applies
 * whole and `kubectl get plugins` lists it) with a warning naming the kind, and the console offers no page
 * or menu entry for it. Permissions whose subject is a plugin are kept and act for nobody.
 */
export const pluginKind: ResourceKind<PluginDocument> = {
  kind: 'Plugin',
  apiVersions: ['mission-control.flanksource.com/v1'],
  schema: pluginDocument,
  async apply(doc, { client, source, actor }) {
    const { name } = doc.metadata;
    const namespace = doc.metadata.namespace ?? 'default';
    const warnings = [PLUGIN_NOT_RUN];
    for (const key of Object.keys(doc.spec).filter((key) => !isOneOf(PLUGIN_FIELDS, key))) {
      warnings.push(`spec.${key}: not a field of Mission Control's Plugin (${PLUGIN_FIELDS.join(', ')}); kept`);
    }
    const values = [JSON.stringify(doc.metadata.labels ?? {}), JSON.stringify(doc.spec), source];
    const found = await client.query<{ id: string; same: boolean }>(
      `SELECT id, (labels = $3::jsonb AND spec = $4::jsonb AND source = $5) AS same
         FROM plugins WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE`,
      [namespace, name, ...values],
    );
    const existing = found.rows[0];
    if (existing) {
      if (!existing.same) await client.query('UPDATE plugins SET (labels, spec, source) = ($2, $3, $4) WHERE id = $1', [existing.id, ...values]);
      return { action: existing.same ? 'unchanged' : 'updated', id: existing.id, name, warnings };
    }
    const inserted = await client.query<{ id: string }>('INSERT INTO plugins (name, namespace, labels, spec, source, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id', [
      name,
      namespace,
      ...values,
      actor?.id ?? null,
    ]);
    const id = inserted.rows[0]?.id;
    if (!id) throw new Error('plugin insert returned no row');
    return { action: 'created', id, name, warnings };
  },
};
