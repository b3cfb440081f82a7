import type { PendingEvent } from '../../platform/jobs/event-queue';
import type { Planned } from './store-plan';

/** The config.* events a scrape publishes. */

/** A config item as config.* events carry it: who it is, and what it was before (`previous`). */
export function configEvent(name: string, plan: Planned, previous: { health: string | null; status: string | null } | null): PendingEvent {
  const { item } = plan;
  return {
    name,
    properties: {
      id: plan.id,
      config_id: plan.id,
      name: item.name,
      type: item.type,
      config_class: item.configClass,
      namespace: item.namespace,
      health: item.health,
      status: item.status,
      ...(item.deletedAt ? { delete_reason: item.deleteReason } : {}),
      previous,
    },
  };
}

/** A config item row deleted by a statement (RETURNING these columns). */
export interface DeletedItem {
  id: string;
  name: string | null;
  type: string;
  namespace: string | null;
  config_class: string | null;
  health: string | null;
  status: string | null;
}

/** config.deleted of a row deleted in SQL (stale, or with its scraper). */
export function deletedEvent(row: DeletedItem, reason: string): PendingEvent {
  return {
    name: 'config.deleted',
    properties: {
      id: row.id,
      config_id: row.id,
      name: row.name,
      type: row.type,
      config_class: row.config_class,
      namespace: row.namespace,
      health: row.health,
      status: row.status,
      delete_reason: reason,
      previous: { health: row.health, status: row.status },
    },
  };
}
