// Scraping at scale (issue 5): a kubernetesFile scraper over a folder of 10,000 Kubernetes objects (50
// namespaces, each with deployments, their replica sets and pods, services and config maps, in multi-
// document YAML files as `kubectl get -o yaml` exports them). Measures the first run (every item created,
// with parents, relationships and insights) and a re-run after 1% of the objects changed, and checks that
// exactly those changes were recorded.
// Targets: first run ≤ 10 s; re-scrape with 1% changed ≤ 3 s, with exactly that many changes.
// Run: npx tsx bench/catalog-scrape.ts [items=10000]   (BENCH_DATABASE_URL for an external PostgreSQL)
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runScraper } from '../server/features/catalog/run';
import { saveScraper } from '../server/features/catalog/scrapers';
import { inTransaction } from '../server/platform/jobs/db';
import { createLogger } from '../server/platform/logger';
import { withEmbedded, withExternal, type BenchDatabase } from './_db';

const ITEMS = Number(process.argv[2] ?? 10_000);
const NAMESPACES = 50;
const FIRST_TARGET_MS = 10_000;
const RESCRAPE_TARGET_MS = 3_000;

interface Generated {
  files: Map<string, unknown[]>;
  /** Pods by file, to change some of them later. */
  pods: Array<{ file: string; index: number }>;
}

const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** 10,000 objects: per namespace 1 Namespace, then per app a Deployment, a ReplicaSet, 3 Pods, a Service, a ConfigMap (7 objects). */
function generate(total: number): Generated {
  const files = new Map<string, unknown[]>();
  const pods: Generated['pods'] = [];
  let n = 0;
  const perNamespace = Math.ceil(total / NAMESPACES);
  for (let ns = 0; ns < NAMESPACES && n < total; ns += 1) {
    const namespace = `team-${ns}`;
    const nsFile = `${namespace}/namespace.yaml`;
    files.set(nsFile, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, uid: uid(n++), labels: { team: namespace } }, status: { phase: 'Active' } }]);
    const apps = Math.floor((perNamespace - 1) / 7);
    for (let app = 0; app < apps && n + 7 <= total; app += 1) {
      const name = `svc-${app}`;
      const file = `${namespace}/${name}.yaml`;
      const labels = { 'app.kubernetes.io/name': name, team: namespace };
      const containers = [{ name, image: `registry.example.com/${namespace}/${name}:1.${app}.0`, resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } }, ports: [{ containerPort: 8080 }] }];
      const deploymentUid = uid(n++);
      const rsUid = uid(n++);
      const docs: unknown[] = [
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace, uid: deploymentUid, labels }, spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers } } }, status: { replicas: 3, readyReplicas: 3 } },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `${name}-abc`, namespace, uid: rsUid, labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: deploymentUid, controller: true }] }, spec: { replicas: 3 }, status: { replicas: 3, readyReplicas: 3 } },
      ];
      for (let p = 0; p < 3; p += 1) {
        pods.push({ file, index: docs.length });
        docs.push({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `${name}-abc-${p}`, namespace, uid: uid(n++), labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-abc`, uid: rsUid, controller: true }] },
          spec: { nodeName: `node-${(app + p) % 20}`, containers },
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name, ready: true, restartCount: 0, state: { running: { startedAt: '2026-11-01T00:00:00Z' } } }] },
        });
      }
      docs.push({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, uid: uid(n++), labels }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] } });
      docs.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-config`, namespace, uid: uid(n++), labels }, data: { LOG_LEVEL: 'info', POOL_SIZE: String(5 + (app % 10)) } });
      files.set(file, docs);
    }
  }
  // The rest (to reach the exact count): config maps of the first namespace.
  const extra: unknown[] = [];
  while (n < total) extra.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `extra-${n}`, namespace: 'team-0', uid: uid(n++) }, data: { KEY: 'value' } });
  if (extra.length > 0) files.set('team-0/extra.yaml', extra);
  return { files, pods };
}

async function writeAll(folder: string, files: Map<string, unknown[]>, only?: Set<string>): Promise<void> {
  for (const [file, docs] of files) {
    if (only && !only.has(file)) continue;
    await fs.mkdir(path.join(folder, path.dirname(file)), { recursive: true });
    await fs.writeFile(path.join(folder, file), docs.map((doc) => stringify(doc)).join('---\n'));
  }
}

async function measure(db: BenchDatabase): Promise<boolean> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-scrape-'));
  const log = createLogger('warn');
  try {
    const generated = generate(ITEMS);
    await writeAll(folder, generated.files);
    const objects = [...generated.files.values()].reduce((sum, docs) => sum + docs.length, 0);
    const saved = await inTransaction(db.pool, (client) =>
      saveScraper(client, { name: 'bench', namespace: 'bench', labels: {}, spec: { schedule: '@never', kubernetesFile: [{ paths: [folder] }] }, source: 'UI' }),
    );

    let started = performance.now();
    const first = await runScraper(db.pool, saved.id, { log });
    const firstMs = performance.now() - started;

    // 1% of the objects change: some pods restart (a status change) — every 100th pod until 1% is reached.
    const changed = Math.round(objects / 100);
    const step = Math.max(1, Math.floor(generated.pods.length / changed));
    const touched = new Set<string>();
    for (let i = 0; i < changed; i += 1) {
      const pod = generated.pods[(i * step) % generated.pods.length];
      if (!pod) continue;
      const doc = generated.files.get(pod.file)?.[pod.index] as { status: { containerStatuses: Array<{ restartCount: number }> } };
      const status = doc.status.containerStatuses[0];
      if (status) status.restartCount += 1;
      touched.add(pod.file);
    }
    await writeAll(folder, generated.files, touched);
    const before = Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM config_changes')).rows[0]?.n ?? 0);
    started = performance.now();
    const second = await runScraper(db.pool, saved.id, { log });
    const secondMs = performance.now() - started;
    const after = Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM config_changes')).rows[0]?.n ?? 0);

    const exact = second.updated === changed && second.changes === changed && after - before === changed && second.unchanged === objects - changed;
    const rows = [
      ['first run', `${objects} objects`, `${(firstMs / 1000).toFixed(2)} s`, `≤ ${FIRST_TARGET_MS / 1000} s`, firstMs <= FIRST_TARGET_MS && first.created === objects && first.errors.length === 0],
      ['re-scrape, 1% changed', `${changed} changed`, `${(secondMs / 1000).toFixed(2)} s`, `≤ ${RESCRAPE_TARGET_MS / 1000} s`, secondMs <= RESCRAPE_TARGET_MS && exact],
    ] as const;
    process.stdout.write(`\n${db.label}: scrape of ${objects} Kubernetes objects in ${generated.files.size} files\n`);
    for (const [what, size, figure, target, met] of rows) process.stdout.write(`  ${what.padEnd(24)} ${size.padEnd(18)} ${figure.padStart(9)}   target ${target.padEnd(8)} ${met ? 'met' : 'NOT MET'}\n`);
    process.stdout.write(`  first run: created ${first.created}, analysis ${first.analysis}, errors ${first.errors.length}\n`);
    process.stdout.write(`  re-scrape: updated ${second.updated}, unchanged ${second.unchanged}, changes ${second.changes} (rows added ${after - before}; expected exactly ${changed})\n`);
    return rows.every((row) => row[4]);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const embedded = await withEmbedded('catalog-scrape', measure);
  const external = await withExternal(measure);
  if (!embedded || external === false) process.exitCode = 1;
}

void main();
