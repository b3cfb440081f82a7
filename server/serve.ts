import fs from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './app';
import { features } from './features';
import type { Config } from './platform/config';
import { openDatabase, type Database } from './platform/db';
import { isAlive } from './platform/db/embedded';
import { migrate } from './platform/db/migrate';
import { watchResourcesFolder } from './platform/resources-folder';
import { createLogger, createTeeLogger } from './platform/logger';
import { demoLogFile } from './features/logs/demo';
import { codeOf, isRecord, messageOf } from './platform/errors';
import { identityCount } from './features/identity/identities';
import { listenApp, tlsMode, type Listening } from './platform/tls';
import { boundHeapGrowth } from './platform/memory';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

interface ServeLock {
  pid: number;
  url: string;
}

/**
 * One `serve` per embedded data directory (several instances share work through an external
 * DATABASE_URL instead). A lock left by a killed run is stale and taken over.
 */
async function takeServeLock(config: Config): Promise<() => Promise<void>> {
  const file = path.join(config.dataDir, 'serve.json');
  await fs.mkdir(config.dataDir, { recursive: true });
  try {
    const lock: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    if (isRecord(lock) && typeof lock.pid === 'number' && lock.pid !== process.pid && isAlive(lock.pid)) {
      const cmdline = await fs.readFile(`/proc/${lock.pid}/cmdline`, 'utf8').catch(() => 'node');
      if (cmdline.includes('node') || cmdline.includes('watchkeeper')) {
        throw new Error(
          `another watchkeeper serve (pid ${lock.pid}, ${typeof lock.url === 'string' ? lock.url : 'unknown URL'}) is already using the data directory ${config.dataDir}; ` +
            'stop it first, or set WATCHKEEPER_DATA to another directory',
        );
      }
    }
  } catch (error) {
    if (codeOf(error) !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  const lock: ServeLock = { pid: process.pid, url: config.publicUrl };
  await fs.writeFile(file, JSON.stringify(lock));
  return async () => {
    await fs.rm(file, { force: true });
  };
}

/** `serve --demo`: stdout and a copy in the first log root (features/logs/demo.ts); undefined when that file cannot be written. */
function demoLogger(config: Config) {
  const file = config.demo ? demoLogFile(config.logRoots ?? []) : undefined;
  if (!file) return undefined;
  try {
    return createTeeLogger(config.logLevel, file);
  } catch (error) {
    createLogger(config.logLevel).warn({ file, err: messageOf(error) }, `The demo's copy of the console log cannot be written: ${messageOf(error)}`);
    return undefined;
  }
}

/** How long a stop may take before the process exits regardless. */
const SHUTDOWN_LIMIT_MS = 15_000;

export async function serve(config: Config): Promise<void> {
  const started = Date.now();
  boundHeapGrowth();
  // Demo mode keeps a copy of the console's own log (info and above) where the demo log backend reads it.
  const log = demoLogger(config) ?? createLogger(config.logLevel);
  const releaseLock = config.databaseUrl ? async () => undefined : await takeServeLock(config);
  let db: Database | undefined;
  const stoppers: Array<() => Promise<void>> = [];
  let stopping = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // A stop must end the process: whatever hangs (a connection a worker never gives back) is cut off.
    setTimeout(() => {
      log.warn({ afterMs: SHUTDOWN_LIMIT_MS }, 'stopping took too long; exiting now');
      log.flush();
      process.exit(code);
    }, SHUTDOWN_LIMIT_MS).unref();
    for (const stop of stoppers.reverse()) {
      await stop().catch((error: unknown) => log.warn({ err: error }, 'error while stopping'));
    }
    await db?.close().catch((error: unknown) => log.warn({ err: error }, 'error while closing the database'));
    await releaseLock();
    log.flush();
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  try {
    db = await openDatabase(config, log);
    // `serve` owns the embedded server, including one adopted from a killed run, and stops it on exit.
    db.embedded?.takeOwnership();
    await migrate(db.pool, log);
    const { app, context } = await buildApp({ config, pool: db.pool, log });
    stoppers.push(() => app.close());
    let listening: Listening;
    try {
      // http and https on the one port (the console's own CA, or TLS_CERT_FILE), or plain http with TLS=off.
      listening = await listenApp(app, config, log);
    } catch (error) {
      const code = codeOf(error);
      if (code === 'EADDRINUSE') throw new Error(`port ${config.port} is already in use on ${config.host}; set PORT (or --port) to a free one`);
      if (code === 'EADDRNOTAVAIL') throw new Error(`HOST=${config.host} is not an address of this machine`);
      throw error;
    }
    // Stopped first (stoppers run in reverse): no new connection while the app closes.
    stoppers.push(() => listening.close());
    for (const feature of features) {
      if (!feature.start) continue;
      const stop = await feature.start(context);
      // A signal while starting (shutdown already ran the stoppers it had): stop this one too, and go no further.
      if (stopping) {
        await stop().catch((error: unknown) => log.warn({ err: error }, 'error while stopping'));
        return;
      }
      stoppers.push(stop);
    }
    if (config.demo) {
      for (const feature of features) {
        if (!feature.demo) continue;
        try {
          log.info({ feature: feature.name }, `Demo data: ${await feature.demo(context)}`);
        } catch (error) {
          log.warn({ feature: feature.name, err: messageOf(error) }, `Demo data of ${feature.name} not added: ${messageOf(error)}`);
        }
      }
    }
    if (config.resourcesDir) {
      const folder = await watchResourcesFolder(config.resourcesDir, { pool: db.pool, kinds: features.flatMap((feature) => feature.kinds ?? []), log });
      stoppers.push(() => folder.stop());
    }
    if ((await identityCount(db.pool)) === 0) {
      // A fresh install: the first account created becomes the administrator (docs/AUTH.md).
      const exposed = !LOOPBACK_HOSTS.has(config.host);
      log[exposed ? 'warn' : 'info'](
        { host: config.host },
        `No account exists yet: open ${config.publicUrl}/registration to create the first one (it becomes the administrator), or run \`watchkeeper admin create --email you@example.com\`` +
          (exposed ? `. HOST=${config.host} accepts connections from other machines: whoever registers first becomes the administrator` : ''),
      );
    }
    const also = listening.urls.filter((url) => url !== config.publicUrl);
    const tlsNote =
      tlsMode(config) === 'auto'
        ? ` (https with the console's own CA: trust ${path.join(config.dataDir, 'tls', 'ca.crt')}; kubeconfig downloads carry it)`
        : '';
    log.info(
      { url: config.publicUrl, listening: listening.urls, database: db.description, startupMs: Date.now() - started },
      `Watchkeeper is running at ${config.publicUrl}${also.length > 0 ? `, also ${also.join(' and ')}${tlsNote}` : ''}`,
    );
  } catch (error) {
    // Stopped while starting: the failure is the stop's doing (a closed pool), and shutdown exits.
    if (stopping) return;
    log.fatal({ err: messageOf(error) }, `watchkeeper could not start: ${messageOf(error)}`);
    await shutdown(1);
  }
}
