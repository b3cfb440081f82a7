import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import type pg from 'pg';
import { inTransaction } from '../../platform/jobs/db';
import { runErrors } from '../../platform/jobs/run-errors';
import type { JobRun } from '../../platform/jobs/job-run';
import type { Logger } from '../../platform/logger';
import { buildTopology } from './build';
import { parseTopologySpec } from './spec';
import { storeTopology, type StoreSummary } from './store';
import { loadTopology } from './topologies';

export class TopologyNotFound extends Error {}

export interface TopologyRunSummary extends StoreSummary {
  errors: string[];
}

/**
 * One run of one topology: the tree built from its spec (lookups, forEach, selectors; a failing lookup is
 * an error of the run, the rest still builds), then written in one transaction. With `job`, the counts
 * and errors go to job_history.
 */
export async function runTopology(pool: pg.Pool, id: string, options: { signal?: AbortSignal; log: Logger; job?: JobRun }): Promise<TopologyRunSummary> {
  const topology = await loadTopology(pool, id);
  if (!topology) throw new TopologyNotFound(`topology ${id} not found`);
  const signal = options.signal ?? new AbortController().signal;
  const parsed = parseTopologySpec(topology.spec, topology.name);
  const errors = runErrors(options.job);
  const error = (message: string) => errors.add(message);
  for (const problem of parsed.errors) error(`${problem.path}: ${problem.message}`);
  // Capabilities (docs/SECURITY.md): code, server files, connections and SQL run only while the last author holds them.
  const refusal = parsed.errors.length > 0 ? undefined : await runRefusal(pool, topology.updated_by, capabilityUses(topology.spec), topology.namespace);
  if (refusal) error(refusal.message);
  if (parsed.errors.length > 0 || refusal) return { created: 0, updated: 0, unchanged: 0, deleted: 0, components: [], errors: errors.list() };
  const root = await buildTopology(parsed.root, { name: topology.name, icon: topology.icon, labels: topology.labels }, { db: pool, pool, namespace: topology.namespace, topologyId: id, signal, log: options.log, error });
  if (signal.aborted) throw new Error('the run was stopped before it finished; nothing was written');
  const summary = await inTransaction(pool, async (client) => {
    const stored = await storeTopology(client, id, root);
    await client.query('UPDATE topologies SET last_run_at = now() WHERE id = $1', [id]);
    return stored;
  });
  const result: TopologyRunSummary = { ...summary, errors: errors.list() };
  if (options.job) {
    options.job.success(summary.created + summary.updated + summary.unchanged);
    options.job.summary({ created: summary.created, updated: summary.updated, unchanged: summary.unchanged, deleted: summary.deleted, components: summary.components.length, warnings: parsed.warnings });
    for (const warning of parsed.warnings) options.job.warn(warning);
  }
  return result;
}
