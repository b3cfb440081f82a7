import type pg from 'pg';
import { AppError } from '../../platform/http/errors';
import { specResourceKind, type SavedSpecResource } from '../../platform/resources';
import { saveSpecRow, SpecInvalid, type SpecRowInput, type SpecRowTable } from '../../platform/spec-rows';
import { checkPlaybookSpec } from './spec';

/**
 * kind: Playbook (mission-control.flanksource.com/v1): the spec as written, with the columns lists and the
 * run menu read (title, description, icon, category) and the webhook trigger's path.
 */
export const playbookTable: SpecRowTable = {
  table: 'playbooks',
  noun: 'playbook',
  problems: (spec) => checkPlaybookSpec(spec).problems,
  warnings: (spec) => checkPlaybookSpec(spec).checked?.warnings ?? [],
  columns(spec) {
    const checked = checkPlaybookSpec(spec).checked?.spec;
    return {
      title: checked?.title ?? '',
      description: checked?.description ?? null,
      icon: checked?.icon ?? null,
      category: checked?.category ?? '',
      webhook_path: checked?.on?.webhook?.path.replace(/^\/+/, '') ?? null,
      error: null,
    };
  },
};

/** Saves a playbook: the spec checked whole, then its webhook path checked free among the other playbooks. */
export async function savePlaybook(client: pg.PoolClient, input: SpecRowInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedSpecResource> {
  const checked = checkPlaybookSpec(input.spec);
  if (checked.problems.length > 0) throw new SpecInvalid(checked.problems);
  const path = checked.checked?.spec.on?.webhook?.path.replace(/^\/+/, '');
  if (path) {
    const { rows } = await client.query<{ namespace: string; name: string }>(
      `SELECT namespace, name FROM playbooks WHERE webhook_path = $1 AND deleted_at IS NULL
          AND ${options.id ? 'id <> $2' : 'NOT (namespace = $2 AND name = $3)'}`,
      options.id ? [path, options.id] : [path, input.namespace, input.name],
    );
    const other = rows[0];
    if (other) throw new AppError('conflict', `spec.on.webhook.path: "${path}" is the webhook path of the playbook ${other.namespace}/${other.name}; choose another`);
  }
  return saveSpecRow(client, playbookTable, input, options);
}

export const playbookKind = specResourceKind({
  kind: 'Playbook',
  apiVersions: ['mission-control.flanksource.com/v1'],
  problems: playbookTable.problems,
  save: (client, input) => savePlaybook(client, input),
});
