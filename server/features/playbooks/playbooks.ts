import type pg from 'pg';
import { AppError } from '../../platform/http/errors';
import { specResourceKind, type SavedSpecResource } from '../../platform/resources';
import { saveSpecRow, SpecInvalid, type SpecRowInput, type SpecRowTable } from '../../platform/spec-rows';
import { checkPlaybookSpec } from './spec';
import { firstRunAt } from '../../platform/jobs/schedule';

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
  const saved = await saveSpecRow(client, playbookTable, input, options);
  await syncSchedules(client, saved.id, `${input.namespace}/${input.name}`, checked.checked?.spec.on?.schedule ?? []);
  return saved;
}

/** Rewrites the playbook's schedule rows: each keeps its next slot when its schedule is unchanged. */
async function syncSchedules(client: pg.PoolClient, playbookId: string, label: string, schedules: ReadonlyArray<{ schedule: string; name?: string | undefined }>): Promise<void> {
  const { rows } = await client.query<{ position: number; schedule: string }>('SELECT position, schedule FROM playbook_schedules WHERE playbook_id = $1', [playbookId]);
  const kept = new Map(rows.map((row) => [row.position, row.schedule]));
  await client.query('DELETE FROM playbook_schedules WHERE playbook_id = $1 AND position >= $2', [playbookId, schedules.length]);
  for (const [position, entry] of schedules.entries()) {
    if (kept.get(position) === entry.schedule) continue;
    await client.query(
      `INSERT INTO playbook_schedules (playbook_id, position, name, schedule, next_run_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (playbook_id, position) DO UPDATE SET name = EXCLUDED.name, schedule = EXCLUDED.schedule, next_run_at = EXCLUDED.next_run_at`,
      [playbookId, position, `${label} ${entry.name ?? entry.schedule}`, entry.schedule, firstRunAt(entry.schedule)],
    );
  }
}

export const playbookKind = specResourceKind({
  kind: 'Playbook',
  apiVersions: ['mission-control.flanksource.com/v1'],
  problems: playbookTable.problems,
  save: (client, input) => savePlaybook(client, input),
});
