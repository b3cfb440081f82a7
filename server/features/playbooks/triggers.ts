import type pg from 'pg';
import { EVENT_NAMES } from '../../../common/events';
import { resourceIdOf } from '../../platform/event-resources';
import { celIsTrue, celScope } from '../../platform/expressions';
import { errorMessage, inTransaction } from '../../platform/jobs/db';
import type { QueuedEvent } from '../../platform/jobs/event-queue';
import type { Logger } from '../../platform/logger';
import type { SecretStore } from '../../platform/secrets/store';
import { AppError } from '../../platform/http/errors';
import { createRun } from './runs';
import { checkPlaybookSpec, type TriggerEventSpec } from './spec';
import { exclusionOf, loadTarget, type TargetKind } from './targets';

/** The events playbook triggers listen to: health, catalog and topology changes (spec.on.canary|config|component). */
export const TRIGGER_EVENTS = EVENT_NAMES.filter((name) => name.startsWith('check.') || name.startsWith('config.') || name.startsWith('component.'));

const TRIGGER_KEY: Record<TargetKind, 'canary' | 'config' | 'component'> = { check: 'canary', config: 'config', component: 'component' };

/** `failed` or `check.failed` (Mission Control writes the short form under on.canary). */
function triggerMatches(trigger: TriggerEventSpec, kind: TargetKind, event: string): boolean {
  const written = trigger.event.trim();
  const short = event.slice(event.indexOf('.') + 1);
  return written === event || written === short || written === `${kind}.${short}` || (kind === 'check' && written === `canary.${short}`);
}

/**
 * The `playbooks` event consumer: for each event of a check, config or component, every playbook with a
 * matching trigger (event name, labels, CEL filter over the resource) whose selectors and filters admit the
 * resource is run on it, the event as `.event`. A playbook that cannot run there is skipped, never failed.
 */
export async function handleTriggerEvent(pool: pg.Pool, secrets: SecretStore, log: Logger, event: QueuedEvent): Promise<number> {
  const prefix = event.name.split('.')[0];
  const kind: TargetKind | undefined = prefix === 'check' ? 'check' : prefix === 'config' ? 'config' : prefix === 'component' ? 'component' : undefined;
  if (!kind) return 0;
  const key = TRIGGER_KEY[kind];
  const { rows } = await pool.query<{ id: string; name: string; namespace: string; spec: Record<string, unknown> }>(
    `SELECT id, name, namespace, spec FROM playbooks WHERE deleted_at IS NULL AND jsonb_typeof(spec -> 'on' -> $1) = 'array'`,
    [key],
  );
  if (rows.length === 0) return 0;
  const id = resourceIdOf(kind, event.properties);
  if (!id) return 0;
  const target = await loadTarget(pool, kind, id);
  if (!target) return 0;
  let started = 0;
  for (const playbook of rows) {
    const spec = checkPlaybookSpec(playbook.spec).checked?.spec;
    const triggers = spec?.on?.[key] ?? [];
    const scope = celScope({ [kind]: target.row, event: { name: event.name, properties: event.properties } });
    const labels = (target.row.labels ?? {}) as Record<string, string>;
    const matching = triggers.find(
      (trigger) =>
        triggerMatches(trigger, kind, event.name) &&
        Object.entries(trigger.labels ?? {}).every(([name, value]) => labels[name] === value) &&
        (!trigger.filter || celIsTrue(trigger.filter, scope)),
    );
    if (!spec || !matching || exclusionOf(spec, target)) continue;
    try {
      await inTransaction(pool, (client) =>
        createRun(client, secrets, {
          playbookId: playbook.id,
          [`${kind}_id`]: id,
          request: { trigger: 'event', event: { id: event.eventId, name: event.name, properties: event.properties } },
        }),
      );
      started += 1;
    } catch (error) {
      // A playbook whose required parameters have no default cannot run unattended: said in the log, not retried.
      if (error instanceof AppError) log.warn({ playbook: `${playbook.namespace}/${playbook.name}`, event: event.name, err: errorMessage(error) }, 'a playbook trigger matched but the run was refused');
      else throw error;
    }
  }
  return started;
}
