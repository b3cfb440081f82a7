import type pg from 'pg';
import { secretStore } from '../../../platform/secrets';
import { hasReferences, resolveSpecReferences } from '../../../platform/secrets/spec-references';
import { zodProblems } from '../spec';
import type { AnySource } from '../types';

/**
 * A source entry ready to run: its `valueFrom` values and `connection://` references read (in the
 * owner's namespace) and the entry read again by its source's schema. Scrapers and topology lookups read
 * them at each run, as config-db and canary-checker do. Throws naming what cannot be read.
 */
export async function runnableEntry(pool: pg.Pool, source: AnySource, raw: unknown, parsed: Record<string, unknown>, namespace: string, where: string): Promise<{ entry: Record<string, unknown>; secrets: string[] }> {
  if (!hasReferences(raw)) return { entry: parsed, secrets: [] };
  const resolved = await resolveSpecReferences(secretStore(pool), raw, namespace, where);
  const again = source.schema.safeParse(resolved.spec);
  if (!again.success) throw new Error(zodProblems(again.error, where).map((problem) => `${problem.path}: ${problem.message}`).join('; '));
  return { entry: again.data, secrets: resolved.secrets };
}
