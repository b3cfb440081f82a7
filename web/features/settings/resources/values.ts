import { LOCAL_AGENT_ID } from '@common/constants';
import { z } from 'zod';
import type { ResourceRow } from './types';

export const resourceRowSchema = z.record(z.string(), z.unknown());
export type { ResourceRow } from './types';

/** A cell or input text for any JSON value. */
export function valueToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function rowId(row: ResourceRow): string {
  return valueToText(row.id);
}

/** The source that may be edited in the console (DESIGN §1: only UI-sourced resources are editable). */
export const UI_SOURCE = 'UI';

/**
 * Where a row comes from when it is managed outside the console (a CRD, a config file, an agent…), or
 * undefined for a UI row or a table without a `source` column. Spec §4: such rows are linked, read-only.
 */
export function linkedSource(row: ResourceRow | null | undefined): string | undefined {
  // An agent's own resource, pushed here: it is changed on the agent (one defined here for an agent is not).
  const agent = row?.agent_id;
  if (typeof agent === 'string' && agent !== LOCAL_AGENT_ID && row?.upstream_origin !== true) return 'Agent';
  const source = row?.source;
  return typeof source === 'string' && source !== '' && source !== UI_SOURCE ? source : undefined;
}
