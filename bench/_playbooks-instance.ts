// A Watchkeeper instance's playbook runner alone, in its own process, for bench/playbooks.ts (scenario 3,
// kill -9 during running runs): the runner as `serve` starts it (createRunner: its own pool of the default
// size, the secrets of its data directory) with the lease the bench asks for. (The underscore keeps this
// file out of `npm run bench`.)
// Environment: DATABASE_URL (required), WATCHKEEPER_DATA (data directory), LEASE_MILLIS (default 3000).
// Prints one line `ready <instance id>` once the runner listens and claims; SIGTERM stops it cleanly.
import { createRunner } from '../server/features/playbooks/index';
import { loadConfig } from '../server/platform/config';
import { createPool } from '../server/platform/db/pool';
import { newInstanceId } from '../server/platform/jobs/instance';
import { createLogger } from '../server/platform/logger';
import { initSecrets } from '../server/platform/secrets';

const config = loadConfig(process.env);
if (!config.databaseUrl) throw new Error('DATABASE_URL is required');
initSecrets(config.dataDir);
const log = createLogger('error');
const pool = createPool(config.databaseUrl, log);
const instanceId = newInstanceId();
const runner = createRunner({ pool, log, config }, { instanceId, leaseMillis: Number(process.env.LEASE_MILLIS ?? 3_000) });
await runner.start();
process.stdout.write(`ready ${instanceId}\n`);

process.once('SIGTERM', () => {
  void runner
    .stop()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
