// Reading the catalog at scale (issue 5): 100,000 config items of 32 Kubernetes and AWS types (tags cluster,
// namespace, account; parent chains Cluster > Namespace > Deployment > ReplicaSet > Pod; ~60,000 soft
// relationships), 1,000,000 changes over 60 days and 50,000 insights, generated in SQL. Measured over HTTP
// against a real `watchkeeper serve` (curl, as in bench/health.ts), p50/p95 of:
//   the catalog list  /api/db/configs?…&type=eq.X&health=eq.Y&order=updated_at.desc&limit=50, count=exact   target p95 ≤ 50 ms
//   POST /api/catalog/summary by type                                                                         target p95 ≤ 100 ms
//   /api/db/rpc/related_configs_recursive, depth 5                                                            target p95 ≤ 30 ms
//   POST /api/catalog/changes, one config_type over 30 days                                                   target p95 ≤ 100 ms
// Runs on the embedded engine, and also on an external PostgreSQL when BENCH_DATABASE_URL names an (empty,
// disposable) database. BENCH_DATA keeps the seeded embedded data directory between runs.
// Run: npx tsx bench/catalog.ts [items=100000] [changes=1000000] [insights=50000]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { ROOT } from '../test/cli';
import { withEmbedded, withExternal } from './_db';
import { curl, startServer, stats, type BenchRequest } from './_http';

const ITEMS = Number(process.argv[2] ?? 100_000);
const CHANGES = Number(process.argv[3] ?? 1_000_000);
const INSIGHTS = Number(process.argv[4] ?? 50_000);
const RUNS = 40;

interface TypeSpec {
  type: string;
  class: string;
  /** Items of this type in 100,000. */
  per100k: number;
  parent?: string;
  /** Names the namespace tag (Namespace items), the cluster tag (clusters) or the account tag (AWS accounts). */
  tag?: 'cluster' | 'namespace' | 'account';
  statuses: string[];
}

const WORKLOAD = ['Running', 'Running', 'Running', 'Running', 'Pending', 'Degraded'];
const EXISTS = ['Active'];
const POD = ['Running', 'Running', 'Running', 'Running', 'Running', 'Running', 'Pending', 'CrashLoopBackOff', 'Completed', 'Error', 'ImagePullBackOff'];

// Parents come before their children. 32 types; the counts add up to 100,000.
const TYPES: TypeSpec[] = [
  { type: 'Kubernetes::Cluster', class: 'Cluster', per100k: 5, tag: 'cluster', statuses: ['Running'] },
  { type: 'Kubernetes::Node', class: 'Node', per100k: 250, parent: 'Kubernetes::Cluster', statuses: ['Ready', 'Ready', 'Ready', 'NotReady', 'SchedulingDisabled'] },
  { type: 'Kubernetes::Namespace', class: 'Namespace', per100k: 200, parent: 'Kubernetes::Cluster', tag: 'namespace', statuses: ['Active', 'Active', 'Terminating'] },
  { type: 'Kubernetes::StorageClass', class: 'StorageClass', per100k: 15, parent: 'Kubernetes::Cluster', statuses: EXISTS },
  { type: 'Kubernetes::ClusterRole', class: 'ClusterRole', per100k: 500, parent: 'Kubernetes::Cluster', statuses: EXISTS },
  { type: 'Kubernetes::PersistentVolume', class: 'PersistentVolume', per100k: 1_800, parent: 'Kubernetes::Cluster', statuses: ['Bound', 'Bound', 'Bound', 'Released', 'Available'] },
  { type: 'Kubernetes::Deployment', class: 'Deployment', per100k: 6_000, parent: 'Kubernetes::Namespace', statuses: WORKLOAD },
  { type: 'Kubernetes::ReplicaSet', class: 'ReplicaSet', per100k: 12_000, parent: 'Kubernetes::Deployment', statuses: WORKLOAD },
  { type: 'Kubernetes::StatefulSet', class: 'StatefulSet', per100k: 600, parent: 'Kubernetes::Namespace', statuses: WORKLOAD },
  { type: 'Kubernetes::DaemonSet', class: 'DaemonSet', per100k: 250, parent: 'Kubernetes::Namespace', statuses: WORKLOAD },
  { type: 'Kubernetes::CronJob', class: 'CronJob', per100k: 400, parent: 'Kubernetes::Namespace', statuses: ['Active', 'Suspended'] },
  { type: 'Kubernetes::Job', class: 'Job', per100k: 2_000, parent: 'Kubernetes::CronJob', statuses: ['Complete', 'Complete', 'Complete', 'Failed', 'Running'] },
  { type: 'Kubernetes::Pod', class: 'Pod', per100k: 35_370, parent: 'Kubernetes::ReplicaSet', statuses: POD },
  { type: 'Kubernetes::Service', class: 'Service', per100k: 6_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::Endpoints', class: 'Endpoints', per100k: 6_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::ConfigMap', class: 'ConfigMap', per100k: 8_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::Secret', class: 'Secret', per100k: 6_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::Ingress', class: 'Ingress', per100k: 1_500, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::PersistentVolumeClaim', class: 'PersistentVolumeClaim', per100k: 1_800, parent: 'Kubernetes::Namespace', statuses: ['Bound', 'Bound', 'Pending'] },
  { type: 'Kubernetes::ServiceAccount', class: 'ServiceAccount', per100k: 3_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::Role', class: 'Role', per100k: 1_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::RoleBinding', class: 'RoleBinding', per100k: 1_000, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'Kubernetes::HorizontalPodAutoscaler', class: 'HorizontalPodAutoscaler', per100k: 1_500, parent: 'Kubernetes::Namespace', statuses: ['ScalingActive', 'ScalingLimited'] },
  { type: 'Kubernetes::NetworkPolicy', class: 'NetworkPolicy', per100k: 600, parent: 'Kubernetes::Namespace', statuses: EXISTS },
  { type: 'AWS::Account', class: 'Account', per100k: 5, tag: 'account', statuses: EXISTS },
  { type: 'AWS::EKS::Cluster', class: 'KubernetesCluster', per100k: 5, parent: 'AWS::Account', statuses: ['ACTIVE'] },
  { type: 'AWS::EC2::Instance', class: 'VirtualMachine', per100k: 250, parent: 'AWS::Account', statuses: ['running', 'running', 'running', 'stopped'] },
  { type: 'AWS::EC2::SecurityGroup', class: 'SecurityGroup', per100k: 500, parent: 'AWS::Account', statuses: EXISTS },
  { type: 'AWS::S3::Bucket', class: 'Bucket', per100k: 800, parent: 'AWS::Account', statuses: EXISTS },
  { type: 'AWS::RDS::DBInstance', class: 'Database', per100k: 150, parent: 'AWS::Account', statuses: ['available', 'available', 'backing-up', 'modifying'] },
  { type: 'AWS::IAM::Role', class: 'Role', per100k: 1_500, parent: 'AWS::Account', statuses: EXISTS },
  { type: 'AWS::Lambda::Function', class: 'Function', per100k: 1_000, parent: 'AWS::Account', statuses: ['Active', 'Active', 'Inactive'] },
];

/** Soft edges (config_relationships): the k-th item of `from` relates to an item of `to`. */
const RELATIONS: Array<[from: string, to: string, relation: string]> = [
  ['Kubernetes::Service', 'Kubernetes::Deployment', 'routes to'],
  ['Kubernetes::Ingress', 'Kubernetes::Service', 'routes to'],
  ['Kubernetes::Pod', 'Kubernetes::Node', 'runs on'],
  ['Kubernetes::PersistentVolumeClaim', 'Kubernetes::PersistentVolume', 'binds'],
  ['Kubernetes::Node', 'AWS::EC2::Instance', 'runs on'],
  ['Kubernetes::Deployment', 'Kubernetes::ConfigMap', 'uses'],
  ['Kubernetes::Deployment', 'Kubernetes::Secret', 'uses'],
  ['Kubernetes::HorizontalPodAutoscaler', 'Kubernetes::Deployment', 'scales'],
  ['Kubernetes::Cluster', 'AWS::EKS::Cluster', 'is'],
  ['Kubernetes::ServiceAccount', 'AWS::IAM::Role', 'assumes'],
];

// Change types as a Kubernetes scraper records them: half are config diffs, the rest events.
const CHANGE_TYPES = [
  'diff', 'diff', 'diff', 'diff', 'diff', 'diff', 'diff', 'diff', 'diff', 'diff',
  'Pulled', 'Created', 'Started', 'Killing', 'BackOff', 'Scheduled', 'Unhealthy', 'ScalingReplicaSet', 'SuccessfulCreate',
  'SuccessfulDelete', 'FailedScheduling', 'FailedMount', 'Pulling', 'CREATE', 'DELETE', 'UPDATE', 'PermissionAdded', 'Evicted',
];
const SEVERITIES = [...Array<string>(40).fill('info'), 'low', 'low', 'low', 'low', 'medium', 'medium', 'medium', 'high', 'high', 'critical'];
const ANALYZERS: Array<[analyzer: string, type: string]> = [
  ['privileged-container', 'security'], ['image-latest-tag', 'reliability'], ['no-resource-limits', 'performance'], ['crash-looping', 'availability'],
  ['public-bucket', 'security'], ['unused-volume', 'cost'], ['idle-instance', 'cost'], ['single-replica', 'availability'],
  ['deprecated-api', 'technical_debt'], ['no-network-policy', 'compliance'], ['iam-wildcard', 'security'], ['outdated-runtime', 'recommendation'],
];

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
const sqlArray = (values: readonly string[]) => `ARRAY[${values.map(sqlText).join(', ')}]::text[]`;

/**
 * Everything in SQL, on one connection (the index table is temporary). Items type by type (parents first,
 * each child under parent ((k-1) mod parents)+1, inheriting its tags), then relationships, then changes in
 * ten chronological slices (as a live scraper appends them), then insights.
 */
async function seed(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  const client = await pool.connect();
  try {
    await client.query('CREATE TEMP TABLE bench_idx (type text, k int, id uuid, path text, tags jsonb, namespace text, PRIMARY KEY (type, k))');
    for (const spec of TYPES) {
      const count = Math.max(1, Math.round((spec.per100k * ITEMS) / 100_000));
      const slug = spec.class.toLowerCase();
      const name = spec.tag === 'namespace' ? `(ARRAY['payments','checkout','search','identity','billing','catalog','orders','shipping','ledger','ads'])[1 + g % 10] || '-' || g` : `'${slug}-' || g`;
      const ownTags =
        spec.tag === 'cluster' ? `jsonb_build_object('cluster', 'cluster-' || g, 'region', (ARRAY['eu-west-1','us-east-1','ap-south-1'])[1 + g % 3])`
          : spec.tag === 'account' ? `jsonb_build_object('account', 'acct-' || g, 'region', (ARRAY['eu-west-1','us-east-1','ap-south-1'])[1 + g % 3])`
            : `'{}'::jsonb`;
      const parentJoin = spec.parent
        ? `JOIN bench_idx p ON p.type = ${sqlText(spec.parent)} AND p.k = (g - 1) % (SELECT count(*) FROM bench_idx WHERE type = ${sqlText(spec.parent)}) + 1`
        : 'LEFT JOIN bench_idx p ON false';
      await client.query(`
        INSERT INTO config_items (id, external_id, type, config_class, name, namespace, status, ready, health, source, labels, tags, config, parent_id, path,
                                  created_at, updated_at, last_scraped_time, deleted_at, delete_reason)
        SELECT x.id, ARRAY[x.id::text], ${sqlText(spec.type)}, ${sqlText(spec.class)}, x.name, x.ns, x.status, x.status = ANY(ARRAY['Running','Ready','Active','Bound','running','available','ACTIVE']),
               x.health, 'bench', jsonb_build_object('app', 'app-' || (g % 300), 'team', 'team-' || (g % 12)), x.tags,
               jsonb_build_object('kind', ${sqlText(spec.class)}, 'metadata', jsonb_build_object('name', x.name, 'namespace', x.ns, 'uid', x.id, 'labels', jsonb_build_object('app', 'app-' || (g % 300))),
                                  'spec', jsonb_build_object('replicas', 1 + g % 4, 'image', 'registry.example.com/app-' || (g % 300) || ':1.' || (g % 40) || '.0')),
               x.parent_id, x.path, x.created_at, x.updated_at, x.updated_at,
               CASE WHEN x.r < 0.03 THEN x.updated_at END, CASE WHEN x.r < 0.03 THEN 'STALE' END
        FROM (
          SELECT g, gen_random_uuid() AS id, ${name} AS name, p.id AS parent_id,
                 CASE WHEN p.id IS NULL THEN '' WHEN p.path = '' THEN p.id::text ELSE p.path || '.' || p.id END AS path,
                 coalesce(p.tags, '{}'::jsonb) || ${ownTags} AS tags, p.namespace AS ns,
                 (${sqlArray(spec.statuses)})[1 + floor(random() * ${spec.statuses.length})::int] AS status,
                 (ARRAY['healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','warning','warning','unhealthy','unknown', NULL])[1 + floor(random() * 20)::int] AS health,
                 now() - (60 + random() * 300) * interval '1 day' AS created_at, now() - random() * interval '60 days' AS updated_at, random() AS r
          FROM generate_series(1, ${count}) g ${parentJoin}
        ) x`);
      // The index of this type's items; a Namespace names the namespace (and tag) of everything below it.
      await client.query(`
        INSERT INTO bench_idx (type, k, id, path, tags, namespace)
        SELECT type, row_number() OVER (ORDER BY created_at, id), id, path,
               ${spec.tag === 'namespace' ? `tags || jsonb_build_object('namespace', name)` : 'tags'}, ${spec.tag === 'namespace' ? 'name' : 'namespace'}
        FROM config_items WHERE type = ${sqlText(spec.type)}`);
    }
    for (const [from, to, relation] of RELATIONS) {
      await client.query(`
        INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
        SELECT f.id, t.id, ${sqlText(relation)}, 'bench'
        FROM bench_idx f JOIN bench_idx t ON t.type = ${sqlText(to)} AND t.k = (f.k - 1) % (SELECT count(*) FROM bench_idx WHERE type = ${sqlText(to)}) + 1
        WHERE f.type = ${sqlText(from)}`);
    }
    // Every item by a dense random number, for picking items uniformly.
    await client.query('CREATE TEMP TABLE bench_all AS SELECT row_number() OVER (ORDER BY md5(id::text)) AS k, id, type FROM bench_idx');
    await client.query('CREATE UNIQUE INDEX ON bench_all (k)');
    const slices = 10;
    for (let slice = 0; slice < slices; slice += 1) {
      const size = Math.floor(CHANGES / slices) + (slice < CHANGES % slices ? 1 : 0);
      const span = 60 / slices;
      await client.query(`
        INSERT INTO config_changes (config_id, config_type, change_type, severity, source, summary, details, patches, diff, fingerprint, count,
                                    first_observed, external_created_by, created_at)
        SELECT i.id, i.type, x.change_type, x.severity, CASE WHEN x.change_type = 'diff' THEN 'diff' ELSE 'KubernetesEvent' END,
               CASE WHEN x.change_type = 'diff' THEN 'spec.replicas changed' ELSE x.change_type || ': container app-' || (x.g % 300) END,
               CASE WHEN x.change_type = 'diff' THEN NULL ELSE jsonb_build_object('reason', x.change_type, 'component', 'kubelet', 'host', 'node-' || (x.g % 250)) END,
               CASE WHEN x.change_type = 'diff' THEN jsonb_build_object('spec', jsonb_build_object('replicas', 1 + x.g % 5, 'image', 'registry.example.com/app:1.' || (x.g % 40))) END,
               CASE WHEN x.change_type = 'diff' THEN E'--- before\\n+++ after\\n@@ -4,7 +4,7 @@\\n spec:\\n-  replicas: ' || (x.g % 5) || E'\\n+  replicas: ' || (1 + x.g % 5) || E'\\n   template:\\n-    image: registry.example.com/app:1.' || (x.g % 39) || E'\\n+    image: registry.example.com/app:1.' || (x.g % 40) END,
               md5(x.g::text), x.n, x.created_at - (x.n - 1) * interval '3 minutes', CASE WHEN x.g % 7 = 0 THEN 'system:serviceaccount:kube-system:deployment-controller' END, x.created_at
        FROM (
          SELECT g, 1 + floor(random() * (SELECT count(*) FROM bench_all))::int AS k,
                 (${sqlArray(CHANGE_TYPES)})[1 + floor(random() * ${CHANGE_TYPES.length})::int] AS change_type,
                 (${sqlArray(SEVERITIES)})[1 + floor(random() * ${SEVERITIES.length})::int] AS severity,
                 CASE WHEN random() < 0.1 THEN 2 + floor(random() * 18)::int ELSE 1 END AS n,
                 now() - (${60 - span * slice} - random() * ${span}) * interval '1 day' AS created_at
          FROM generate_series(1, ${size}) g
        ) x JOIN bench_all i ON i.k = x.k
        ORDER BY x.created_at`);
    }
    // Insights on distinct items (7919 is prime to any count of the form 2^a 5^b).
    await client.query(`
      INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message, summary, source, analysis, first_observed, last_observed)
      SELECT i.id, a.analyzer, a.analysis_type, (ARRAY['critical','high','medium','medium','low','low','info'])[1 + g % 7],
             (ARRAY['open','open','open','open','open','open','open','resolved','resolved','silenced'])[1 + floor(random() * 10)::int],
             a.analyzer || ' found on ' || i.type, a.analyzer, 'bench', jsonb_build_object('rule', a.analyzer),
             now() - random() * interval '90 days', now() - random() * interval '7 days'
      FROM generate_series(1, LEAST(${INSIGHTS}, (SELECT count(*) FROM bench_all))) g
      JOIN bench_all i ON i.k = (g::bigint * 7919) % (SELECT count(*) FROM bench_all) + 1
      JOIN (SELECT u.analyzer, u.analysis_type, u.o - 1 AS o FROM unnest(${sqlArray(ANALYZERS.map(([analyzer]) => analyzer))}, ${sqlArray(ANALYZERS.map(([, type]) => type))}) WITH ORDINALITY AS u(analyzer, analysis_type, o)) a
        ON a.o = g % ${ANALYZERS.length}`);
  } finally {
    client.release();
  }
  await pool.query('VACUUM ANALYZE config_items, config_changes, config_analysis, config_relationships');
  process.stdout.write(`seeded ${ITEMS} items, ${CHANGES} changes and ${INSIGHTS} insights in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

interface Case {
  name: string;
  target?: number;
  /** The i-th request: a path (GET) or a path and a JSON body (POST). */
  request(i: number): BenchRequest;
  /** Describes one answer (rows, total), from its body and headers. */
  describe(body: string, contentRange: string | undefined): string;
}

async function measure(pool: pg.Pool, url: string, label: string, built: boolean): Promise<boolean> {
  process.stdout.write(`\n${label}${built ? '' : ' (server from its sources: the build failed)'}\n`);
  const server = await startServer(url, built);
  const { id } = await createIdentity(pool, { traits: { email: `bench-${Date.now()}@example.com`, name: { first: 'Bench', last: '' } }, roles: ['viewer'] });
  const { token } = await createSession(pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench' });
  // Items to walk from: deployments (a namespace and cluster above, replica sets and pods below, a service,
  // an autoscaler, a config map and a secret beside).
  const { rows: deployments } = await pool.query<{ id: string }>(
    "SELECT id FROM config_items WHERE type = 'Kubernetes::Deployment' AND deleted_at IS NULL ORDER BY md5(id::text) LIMIT $1",
    [RUNS + 2],
  );
  const deployment = (i: number) => deployments[i % deployments.length]?.id ?? '';
  const listCombos: Array<[string, string]> = [['Kubernetes::Deployment', 'healthy'], ['Kubernetes::Pod', 'unhealthy'], ['Kubernetes::Service', 'healthy'], ['Kubernetes::Pod', 'healthy']];
  const listSelect = 'id,name,type,config_class,status,health,tags,changes,analysis,cost_total_30d,created_at,updated_at,deleted_at,agent_id';
  const arrayLength = (body: string) => {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed.length : 0;
  };
  const changesAnswer = (body: string) => {
    const parsed = JSON.parse(body) as { total?: number; changes?: unknown[] };
    return `${parsed.changes?.length ?? 0} of ${parsed.total ?? 0} changes`;
  };
  const cases: Case[] = [
    {
      name: 'catalog list: /api/db/configs type+health, 50 newest, count=exact',
      target: 50,
      request: (i) => {
        const [type, health] = listCombos[i % listCombos.length] ?? ['Kubernetes::Pod', 'healthy'];
        return { path: `/api/db/configs?select=${listSelect}&type=eq.${encodeURIComponent(type)}&health=eq.${health}&order=updated_at.desc&limit=50`, headers: { prefer: 'count=exact' } };
      },
      describe: (body, range) => `${arrayLength(body)} rows, Content-Range ${range ?? '-'}`,
    },
    {
      name: 'catalog list: /api/db/configs all types, 50 newest, count=exact',
      request: () => ({ path: `/api/db/configs?select=${listSelect}&order=updated_at.desc&limit=50`, headers: { prefer: 'count=exact' } }),
      describe: (body, range) => `${arrayLength(body)} rows, Content-Range ${range ?? '-'}`,
    },
    {
      name: 'POST /api/catalog/summary by type',
      target: 100,
      request: () => ({ path: '/api/catalog/summary', body: {} }),
      describe: (body) => `${arrayLength(body)} groups`,
    },
    {
      name: 'POST /api/catalog/summary by type and cluster tag',
      request: () => ({ path: '/api/catalog/summary', body: { groupBy: ['type', 'cluster'] } }),
      describe: (body) => `${arrayLength(body)} groups`,
    },
    {
      name: 'POST /api/catalog/summary, one namespace tag',
      request: () => ({ path: '/api/catalog/summary', body: { filter: { tags: { namespace: 'payments-10' } } } }),
      describe: (body) => `${arrayLength(body)} groups`,
    },
    {
      name: '/api/db/rpc/related_configs_recursive all, depth 5 (a deployment)',
      target: 30,
      request: (i) => ({ path: `/api/db/rpc/related_configs_recursive?config_id=${deployment(i)}&type_filter=all&max_depth=5` }),
      describe: (body) => `${arrayLength(body)} related`,
    },
    {
      name: 'POST /api/catalog/changes one config_type (Deployment), 30 days',
      target: 100,
      request: () => ({ path: '/api/catalog/changes', body: { config_type: 'Kubernetes::Deployment', from: 'now-30d', page_size: 50 } }),
      describe: changesAnswer,
    },
    {
      name: 'POST /api/catalog/changes one config_type (Pod, the largest), 30 days',
      request: () => ({ path: '/api/catalog/changes', body: { config_type: 'Kubernetes::Pod', from: 'now-30d', page_size: 50 } }),
      describe: changesAnswer,
    },
    {
      name: 'POST /api/catalog/changes all types, 7 days',
      request: () => ({ path: '/api/catalog/changes', body: { from: 'now-7d', page_size: 50 } }),
      describe: changesAnswer,
    },
    {
      name: 'POST /api/catalog/changes of a deployment, recursive all, 30 days',
      request: (i) => ({ path: '/api/catalog/changes', body: { id: deployment(i), recursive: 'all', from: 'now-30d' } }),
      describe: changesAnswer,
    },
    {
      name: 'POST /api/resources/search configs by words',
      request: () => ({ path: '/api/resources/search', body: { configs: [{ search: 'deployment-42' }] } }),
      describe: (body) => `${(JSON.parse(body) as { configs?: unknown[] }).configs?.length ?? 0} configs`,
    },
  ];
  let met = true;
  const table: string[][] = [['measure', 'p50 ms', 'p95 ms', 'target p95', 'met', 'answer']];
  try {
    for (const item of cases) {
      const samples: number[] = [];
      let answer = '';
      for (let i = 0; i < RUNS + 2; i += 1) {
        const result = curl(server.url, token, item.request(i));
        if (i >= 2) samples.push(result.ms);
        if (i === 2) answer = item.describe(result.body, result.range);
      }
      const s = stats(samples);
      const ok = item.target === undefined || s.p95 <= item.target;
      if (!ok) met = false;
      table.push([item.name, s.p50.toFixed(1), s.p95.toFixed(1), item.target === undefined ? '-' : `≤ ${item.target}`, item.target === undefined ? '' : ok ? 'OK' : 'MISSED', answer]);
    }
  } finally {
    await server.stop();
  }
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length))) ?? [];
  for (const row of table) process.stdout.write(`  ${row.map((cell, column) => (column === 1 || column === 2 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join('  ')}\n`);
  return met;
}

/** Seeds unless the database already holds this bench's data, seeded within the last day. */
async function prepare(pool: pg.Pool): Promise<void> {
  // The server's retention job keeps 60 days of changes: the oldest seeded ones would go while it runs.
  await pool.query("INSERT INTO properties (name, value) VALUES ('config_changes.retention_days', '90') ON CONFLICT (name, organization_id) DO UPDATE SET value = EXCLUDED.value");
  const { rows } = await pool.query<{ items: number; changes: number; fresh: boolean }>(
    `SELECT (SELECT count(*) FROM config_items WHERE source = 'bench')::int AS items, (SELECT count(*) FROM config_changes)::int AS changes,
            coalesce((SELECT max(created_at) FROM config_changes) > now() - interval '1 day', false) AS fresh`,
  );
  const row = rows[0];
  if (row && row.items === ITEMS && row.changes === CHANGES && row.fresh) return;
  await pool.query('TRUNCATE config_items, config_changes, config_analysis, config_relationships, config_component_relationships CASCADE');
  await seed(pool);
}

async function main(): Promise<void> {
  // The HTTP figures come from the built server, as `npm start` runs it; build it when the sources are newer.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' });
  const built = build.status === 0;
  let met = await withEmbedded(
    'catalog',
    async ({ pool, url, label }) => {
      await prepare(pool);
      return measure(pool, url, label, built);
    },
    process.env.BENCH_DATA,
  );
  const external = await withExternal(async ({ pool, url, label }) => {
    await prepare(pool);
    return measure(pool, url, label, built);
  });
  if (external === false) met = false;
  process.stdout.write(`\n${met ? 'every target met' : 'a target was MISSED'}\n`);
}

await main();
