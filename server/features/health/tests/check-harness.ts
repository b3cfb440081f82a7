import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { canaryKind } from '../canary-kind';
import type { CheckResult } from '../results';
import { runCanary } from '../run-canary';

/** Shared steps of the check-type tests: apply a canary-checker YAML, run it, read results by check name. */

/** A name no other test file (or an earlier run) uses, for databases, keys and canaries. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export async function applyCanary(t: TestApp, text: string): Promise<{ ok: boolean; warnings: string[]; errors: string[] }> {
  const [result] = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'canary.yaml', text }], 'ConfigFile', createLogger('silent'));
  return { ok: result?.ok ?? false, warnings: result?.outcome?.warnings ?? [], errors: result?.errors ?? [] };
}

export async function canaryIdOf(t: TestApp, name: string): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  const id = rows[0]?.id;
  if (!id) throw new Error(`no canary named ${name}`);
  return id;
}

/** Runs every check of a canary and answers each result by check name. */
export async function runByName(t: TestApp, canaryName: string): Promise<Record<string, CheckResult>> {
  const ran = await runCanary({ pool: t.db.pool, log: createLogger('silent') }, await canaryIdOf(t, canaryName), new AbortController().signal);
  return Object.fromEntries(ran.map((item) => [item.check.name, item.outcome.result]));
}
