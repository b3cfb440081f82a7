import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { AppContext } from '../../platform/context';
import { isRecord } from '../../platform/errors';
import { inTransaction } from '../../platform/jobs/db';
import { ROOT } from '../../platform/paths';
import { saveTopology } from './topologies';

/** The demo topology: examples/topology/shop.yaml, over the demo catalog and the demo checks. */
export const DEMO_TOPOLOGY = path.join(ROOT, 'examples', 'topology', 'shop.yaml');

/**
 * `serve --demo`: the shop topology (namespace demo, source Demo). Its first run waits a little so the
 * demo scrapers and canaries have run; afterwards it runs every minute.
 */
export async function applyTopologyDemo(ctx: AppContext): Promise<string> {
  const document: unknown = parse(await fs.readFile(DEMO_TOPOLOGY, 'utf8'));
  if (!isRecord(document) || !isRecord(document.metadata) || !isRecord(document.spec)) throw new Error(`${DEMO_TOPOLOGY} is not a Topology`);
  const metadata = document.metadata;
  const labels = isRecord(metadata.labels) ? Object.fromEntries(Object.entries(metadata.labels).map(([key, value]) => [key, String(value)])) : {};
  const saved = await inTransaction(ctx.pool, (client) =>
    saveTopology(client, { name: String(metadata.name), namespace: String(metadata.namespace ?? 'demo'), labels, spec: document.spec as Record<string, unknown>, source: 'Demo' }),
  );
  await ctx.pool.query("UPDATE topologies SET next_run_at = now() + interval '15 seconds' WHERE id = $1", [saved.id]);
  return `the topology demo/shop over the demo catalog and checks (first run in 15 s)`;
}
