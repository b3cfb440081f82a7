import type { AppContext } from '../../platform/context';
import { inTransaction } from '../../platform/jobs/db';
import { saveCanary } from './canaries';

/**
 * `serve --demo`: canaries in the `demo` namespace that check this console, its database and two
 * scripted jobs, so that a new user sees real, changing results within a minute. Every result is a real
 * run; nothing is invented. Applied on each start (source "Demo", read-only in the editor); they run at
 * once and then every 30 seconds. Remove them with `DELETE /api/canary/canaries/{id}` or from the list.
 */
export const DEMO_NAMESPACE = 'demo';

function hostForUrl(host: string): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return reachable.includes(':') ? `[${reachable}]` : reachable;
}

/** Where the app's own pool connects, as host:port (the embedded server or DATABASE_URL). */
function databaseEndpoint(ctx: AppContext): string | undefined {
  const options = ctx.pool.options;
  if (options.host && options.port) return `${options.host}:${options.port}`;
  if (options.connectionString) {
    try {
      const url = new URL(options.connectionString);
      return `${url.hostname}:${url.port || '5432'}`;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function demoCanaries(ctx: AppContext): Array<{ name: string; labels: Record<string, string>; spec: Record<string, unknown> }> {
  const host = hostForUrl(ctx.config.host);
  const base = `http://${host}:${ctx.config.port}`;
  const database = databaseEndpoint(ctx);
  return [
    {
      name: 'watchkeeper-console',
      labels: { team: 'platform', tier: 'frontend' },
      spec: {
        schedule: '@every 30s',
        http: [
          {
            name: 'console health',
            description: 'this console answers and reaches its database',
            url: `${base}/health`,
            thresholdMillis: 2000,
            responseCodes: [200],
            responseJSONContent: { path: '$.database', value: 'ok' },
            display: { expr: "'database ' + json.database + ', version ' + json.version" },
          },
          {
            name: 'sign-in required',
            description: 'the API refuses a request without a session',
            url: `${base}/api/auth/whoami`,
            test: { expr: 'code == 401' },
          },
        ],
        tcp: [
          { name: 'console port', endpoint: `${host}:${ctx.config.port}`, thresholdMillis: 1000 },
          ...(database ? [{ name: 'database port', description: "the console's PostgreSQL", endpoint: database, thresholdMillis: 1000 }] : []),
        ],
        ...(ctx.config.databaseUrl
          ? {}
          : {
              folder: [
                {
                  name: 'data directory',
                  description: 'room left where the embedded database keeps its files',
                  path: ctx.config.dataDir,
                  test: { expr: 'availableSize > 512 * 1024 * 1024' },
                  display: { expr: "string(availableSize / 1048576) + ' MiB free'" },
                },
              ],
            }),
      },
    },
    {
      name: 'nightly-jobs',
      labels: { team: 'data', tier: 'batch' },
      spec: {
        schedule: '@every 30s',
        exec: [
          {
            name: 'import queue',
            description: 'a scripted job that fails about one run in four, with varying latency',
            script: 'sleep 0.$((RANDOM % 6)); if [ $((RANDOM % 4)) -eq 0 ]; then echo "queue backed up: $((RANDOM % 400 + 100)) jobs waiting" >&2; exit 1; fi; echo "$((RANDOM % 40)) jobs waiting"',
          },
          {
            name: 'report build',
            description: 'a scripted job that takes between 0.2 and 1.4 seconds',
            script: 'sleep 0.$((RANDOM % 8 + 2)); sleep 0.$((RANDOM % 5)); echo "report ready"',
          },
        ],
      },
    },
    {
      name: 'retired-services',
      labels: { team: 'web', tier: 'backend' },
      spec: {
        schedule: '@every 1m',
        tcp: [
          {
            name: 'legacy cache',
            description: 'nothing listens on this port: the demo keeps one check failing on purpose',
            endpoint: '127.0.0.1:9',
            thresholdMillis: 1000,
          },
        ],
      },
    },
  ];
}

/** Applies the demo canaries and schedules their first run now. */
export async function applyDemo(ctx: AppContext): Promise<number> {
  const ids: string[] = [];
  for (const canary of demoCanaries(ctx)) {
    const saved = await inTransaction(ctx.pool, (client) =>
      saveCanary(client, { name: canary.name, namespace: DEMO_NAMESPACE, labels: canary.labels, spec: canary.spec, source: 'Demo' }),
    );
    ids.push(saved.id);
  }
  await ctx.pool.query('UPDATE canaries SET next_run_at = now() WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL', [ids]);
  await ctx.pool.query('UPDATE checks SET next_runtime = now() WHERE canary_id = ANY($1::uuid[]) AND deleted_at IS NULL', [ids]);
  return ids.length;
}
