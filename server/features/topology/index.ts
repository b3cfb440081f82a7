import type { Feature } from '../../platform/context';
import { backgroundWork, resourceScheduledTable } from '../../platform/jobs';
import { TOPOLOGY_JOB, topologyApi } from './api';
import { applyTopologyDemo } from './demo';
import { topologyKind } from './kind';
import { topologyKubeKind } from './kube-kind';
import { runTopology } from './run';

export { deleteTopology, saveTopology } from './topologies';
export { runTopology } from './run';

/** Topologies run as scheduled rows: each slot once across all instances, a topology never overlapping itself. */
export const topologiesTable = resourceScheduledTable('topologies');

/**
 * Topology (spec §1, §2 /topology, §3 Topology): topologies in the canary-checker format build components
 * from their spec, lookups and selectors; the dashboard reads them with a live health roll-up. Every run
 * is in job_history (resource type topology).
 */
export const topologyFeature: Feature = {
  name: 'topology',
  kinds: [topologyKind],
  kubeKinds: [topologyKubeKind],
  register(app, ctx) {
    topologyApi(app, ctx);
    backgroundWork.rows({
      name: TOPOLOGY_JOB,
      table: topologiesTable,
      resourceType: 'topology',
      concurrency: 1,
      history: 'every-run',
      run: async (row, run) => {
        await runTopology(run.pool, row.id, { log: run.log, job: run, signal: run.signal });
      },
    });
  },
  demo: (ctx) => applyTopologyDemo(ctx),
};
