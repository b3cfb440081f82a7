import { parseArgs } from 'node:util';
import type pg from 'pg';
import { ConfigError, loadConfig, type Config } from './platform/config';
import { openDatabase } from './platform/db';
import { migrate } from './platform/db/migrate';
import { createLogger } from './platform/logger';
import { VERSION } from './platform/paths';
import { applyDocuments, formatResult, readInputs } from './platform/resources';
import { features } from './features';
import { serve } from './serve';
import { adminCreate, CliError, tokenCreate } from './features/identity/cli';
import { orgCommand, ORG_USAGE } from './features/organizations-admin/cli';
import { inviteMailer } from './features/organizations-admin/invite-mail';
import { messageOf } from './platform/errors';
import { initSecrets, KeyringError } from './platform/secrets';
import { rotateSecrets } from './platform/secrets/rotate';

const USAGE = `Usage: watchkeeper [command] [options]

Commands:
  serve                 run the console: HTTP API, web app and background workers (default)
  migrate               apply pending database migrations and exit
  apply -f FILE|DIR|-   create or update resources from YAML (multi-document; '-' reads stdin)
  admin create --email E [--password P] [--name N]
                        create an admin account (a password is generated and printed when none is given)
  token create --user E --name N [--scope S ...] [--expiry never|30d|DATE] [--organization ORG]
                        print a new API token acting for that person (scopes: read, write, admin, or
                        object:action such as canaries:read; default admin = everything the person may do;
                        hosted mode: --organization, a name, external id or id, is the one it works in)
${ORG_USAGE}
  secrets rotate [--retire]
                        encrypt every stored secret under a new key while the console runs; --retire then
                        drops keys no value uses from the key file (docs/CONNECTIONS.md)
  version               print the version

Options (each also read from its environment variable):
  --port N              PORT              HTTP port (default 3000)
  --host H              HOST              listen address (default localhost)
  --database-url URL    DATABASE_URL      external PostgreSQL; without it an embedded one runs in the data dir
  --data DIR            WATCHKEEPER_DATA  data directory (default ./data)
  --log-level L         LOG_LEVEL         fatal, error, warn, info (default), debug, trace, silent
  --public-url URL      PUBLIC_URL        the URL users reach the console at
  --smtp-url URL        SMTP_URL          mail server for sign-in codes, e.g. smtp://user:pass@mail:587
                                          (without it, codes are written to the log)
  --smtp-from ADDRESS   SMTP_FROM         sender of that mail (default Watchkeeper <watchkeeper@localhost>)
  --demo                WATCHKEEPER_DEMO  add demo data: canaries that check this console, scrapers of a demo
                                          Kubernetes cluster and of this console's database (serve)
  (key)                 WATCHKEEPER_SECRET_KEY  base64 AES-256 key(s), comma separated, first one writes;
                                          without it the key is the file secret.key in the data dir
  --resources DIR       WATCHKEEPER_RESOURCES  a folder of resource YAML that serve applies on start and
                                          again whenever a file in it is added or changed

HTTPS and proxies (serve; docs/OPERATIONS.md "HTTPS")
  --tls MODE            TLS               auto (default: the port answers http and https, with a CA made in
                                          <data dir>/tls) or off (plain http, as behind a TLS proxy)
  --tls-cert FILE       TLS_CERT_FILE     your certificate (PEM, chain); with --tls-key the port answers https
  --tls-key FILE        TLS_KEY_FILE      and redirects plain http there
  --tls-ca FILE         TLS_CA_FILE       the CA of your certificate, put into kubeconfig downloads (omit for a
                                          public CA)
  --trusted-proxies L   TRUSTED_PROXIES   addresses/CIDRs whose X-Forwarded-* headers are believed (default
                                          loopback; none trusts nobody)

Agent (serve --upstream; docs/AGENTS.md): run here, push checks, configs and runs to an upstream console
  --upstream URL        WATCHKEEPER_UPSTREAM  the upstream console's URL
  --agent-name NAME     WATCHKEEPER_AGENT_NAME  this agent's name upstream (Settings → Agents)
  --token T             WATCHKEEPER_UPSTREAM_TOKEN  the agent's token from upstream
  --token-file F        WATCHKEEPER_UPSTREAM_TOKEN_FILE  or a file holding it, read again when upstream
                                          refuses it (token rotation without a restart)
  (env)                 WATCHKEEPER_AGENT_HEARTBEAT_SECONDS  heartbeat period (default 30)

Sign-in through an OpenID Connect provider (serve --auth oidc; docs/HOSTED.md)
  --auth MODE           WATCHKEEPER_AUTH  builtin (default: the console's own accounts) or oidc
  --oidc-issuer URL     WATCHKEEPER_OIDC_ISSUER  the provider's issuer URL
  --oidc-client-id ID   WATCHKEEPER_OIDC_CLIENT_ID  this console's client id at the provider
  --oidc-client-secret-file F  WATCHKEEPER_OIDC_CLIENT_SECRET_FILE  its client secret (or
                                          WATCHKEEPER_OIDC_CLIENT_SECRET; none for a public client)
  --oidc-scopes S       WATCHKEEPER_OIDC_SCOPES  scopes asked for (default "openid profile email")
  --oidc-org-claim C    WATCHKEEPER_OIDC_ORG_CLAIM  the ID-token claim listing organizations (default organizations)
  -h, --help            this help
`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function fail(message: string): never {
  process.stderr.write(`watchkeeper: ${message}\n`);
  process.exit(1);
}

/**
 * A command on the database (admin, token, org): migrated first; a CliError is the user's mistake, said in
 * one line with exit code 1 after the database is closed; anything else is a bug and throws.
 */
async function cliOnDatabase(config: Config, work: (pool: pg.Pool) => Promise<void>): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const db = await openDatabase(config, log, { max: 2 });
  let problem: string | undefined;
  try {
    await migrate(db.pool, log);
    await work(db.pool);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    problem = error.message;
  } finally {
    await db.close();
  }
  if (problem) fail(problem);
}

async function run(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'database-url': { type: 'string' },
        data: { type: 'string' },
        'log-level': { type: 'string' },
        'public-url': { type: 'string' },
        'smtp-url': { type: 'string' },
        'smtp-from': { type: 'string' },
        file: { type: 'string', short: 'f', multiple: true },
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        user: { type: 'string' },
        scope: { type: 'string', multiple: true },
        expiry: { type: 'string' },
        organization: { type: 'string' },
        retire: { type: 'boolean' },
        backend: { type: 'string' },
        direct: { type: 'boolean' },
        proxied: { type: 'boolean' },
        role: { type: 'string' },
        'external-id': { type: 'string' },
        demo: { type: 'boolean' },
        resources: { type: 'string' },
        upstream: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'agent-name': { type: 'string' },
        auth: { type: 'string' },
        'oidc-issuer': { type: 'string' },
        'oidc-client-id': { type: 'string' },
        'oidc-client-secret': { type: 'string' },
        'oidc-client-secret-file': { type: 'string' },
        'oidc-scopes': { type: 'string' },
        'oidc-org-claim': { type: 'string' },
        tls: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'tls-ca': { type: 'string' },
        'trusted-proxies': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(`${messageOf(error)}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const command = positionals[0] ?? 'serve';
  if (command === 'version') {
    process.stdout.write(`watchkeeper ${VERSION}\n`);
    return;
  }

  let config: Config;
  try {
    config = loadConfig(process.env, {
      ...(values.port !== undefined ? { port: values.port } : {}),
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(values['database-url'] !== undefined ? { databaseUrl: values['database-url'] } : {}),
      ...(values.data !== undefined ? { dataDir: values.data } : {}),
      ...(values['log-level'] !== undefined ? { logLevel: values['log-level'] } : {}),
      ...(values['public-url'] !== undefined ? { publicUrl: values['public-url'] } : {}),
      ...(values['smtp-url'] !== undefined ? { smtpUrl: values['smtp-url'] } : {}),
      ...(values['smtp-from'] !== undefined ? { smtpFrom: values['smtp-from'] } : {}),
      ...(values.demo ? { demo: 'true' } : {}),
      ...(values.resources !== undefined ? { resourcesDir: values.resources } : {}),
      ...(values.upstream !== undefined ? { upstream: values.upstream } : {}),
      ...(values.token !== undefined ? { upstreamToken: values.token } : {}),
      ...(values['token-file'] !== undefined ? { upstreamTokenFile: values['token-file'] } : {}),
      ...(values['agent-name'] !== undefined ? { agentName: values['agent-name'] } : {}),
      ...(values.auth !== undefined ? { auth: values.auth } : {}),
      ...(values['oidc-issuer'] !== undefined ? { oidcIssuer: values['oidc-issuer'] } : {}),
      ...(values['oidc-client-id'] !== undefined ? { oidcClientId: values['oidc-client-id'] } : {}),
      ...(values['oidc-client-secret'] !== undefined ? { oidcClientSecret: values['oidc-client-secret'] } : {}),
      ...(values['oidc-client-secret-file'] !== undefined ? { oidcClientSecretFile: values['oidc-client-secret-file'] } : {}),
      ...(values['oidc-scopes'] !== undefined ? { oidcScopes: values['oidc-scopes'] } : {}),
      ...(values['oidc-org-claim'] !== undefined ? { oidcOrgClaim: values['oidc-org-claim'] } : {}),
      ...(values.tls !== undefined ? { tls: values.tls } : {}),
      ...(values['tls-cert'] !== undefined ? { tlsCertFile: values['tls-cert'] } : {}),
      ...(values['tls-key'] !== undefined ? { tlsKeyFile: values['tls-key'] } : {}),
      ...(values['tls-ca'] !== undefined ? { tlsCaFile: values['tls-ca'] } : {}),
      ...(values['trusted-proxies'] !== undefined ? { trustedProxies: values['trusted-proxies'] } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  try {
    initSecrets(config.dataDir);
  } catch (error) {
    if (error instanceof KeyringError) fail(error.message);
    throw error;
  }

  switch (command) {
    case 'secrets': {
      if (positionals[1] !== 'rotate') fail(`secrets needs a subcommand: secrets rotate\n\n${USAGE}`);
      const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
      const db = await openDatabase(config, log, { max: 2 });
      try {
        await migrate(db.pool, log);
        const started = performance.now();
        const result = await rotateSecrets(db.pool, config.dataDir, { retire: values.retire === true });
        process.stdout.write(
          `re-encrypted ${result.reencrypted} secret value(s) under key ${result.key} in ${Math.round(performance.now() - started)} ms` +
            (result.remaining > 0 ? `; ${result.remaining} value(s) written meanwhile under an older key remain (run it again)` : '') +
            (result.retired.length > 0 ? `; retired key(s) ${result.retired.join(', ')}` : '') +
            '\n',
        );
      } finally {
        await db.close();
      }
      return;
    }
    case 'serve':
      await serve(config);
      return;
    case 'migrate': {
      const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
      const db = await openDatabase(config, log, { max: 2 });
      try {
        const result = await migrate(db.pool, log);
        process.stdout.write(
          result.applied.length === 0
            ? `database is up to date (${result.total} migrations) on ${db.description}\n`
            : `applied ${result.applied.length} migration(s) on ${db.description}:\n${result.applied.map((name) => `  ${name}`).join('\n')}\n`,
        );
      } finally {
        await db.close();
      }
      return;
    }
    case 'apply': {
      const targets = values.file ?? [];
      if (targets.length === 0) fail(`apply needs -f FILE, -f DIR or -f - (standard input)\n\n${USAGE}`);
      const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
      const inputs = [];
      for (const target of targets) {
        try {
          inputs.push(...(await readInputs(target, readStdin)));
        } catch (error) {
          fail(messageOf(error));
        }
      }
      const db = await openDatabase(config, log, { max: 2 });
      let failed = 0;
      try {
        await migrate(db.pool, log);
        const kinds = features.flatMap((feature) => feature.kinds ?? []);
        const results = await applyDocuments(db.pool, kinds, inputs, 'ConfigFile', log);
        for (const result of results) {
          if (!result.ok) failed += 1;
          (result.ok ? process.stdout : process.stderr).write(`${formatResult(result)}\n`);
        }
        process.stdout.write(`${results.length - failed} applied, ${failed} failed\n`);
      } finally {
        await db.close();
      }
      if (failed > 0) process.exitCode = 1;
      return;
    }
    case 'admin':
    case 'token': {
      const sub = positionals[1];
      if (sub !== 'create') fail(`${command} needs a subcommand: ${command} create\n\n${USAGE}`);
      if (command === 'admin' && !values.email) fail('admin create needs --email');
      if (command === 'token' && (!values.user || !values.name)) fail('token create needs --user EMAIL and --name NAME');
      await cliOnDatabase(config, async (pool) => {
        if (command === 'admin') {
          process.stdout.write(await adminCreate(pool, { email: values.email ?? '', password: values.password, name: values.name }));
        } else {
          const created = await tokenCreate(pool, { user: values.user ?? '', name: values.name ?? '', scopes: values.scope ?? [], expiry: values.expiry, organization: values.organization });
          process.stderr.write(`created API token ${created.id} for ${values.user}; it is shown once:\n`);
          process.stdout.write(`${created.token}\n`);
        }
      });
      return;
    }
    case 'org': {
      const options = { backend: values.backend, direct: values.direct, proxied: values.proxied, role: values.role, externalId: values['external-id'] };
      await cliOnDatabase(config, async (pool) => {
        const mail = { send: inviteMailer(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)), consoleUrl: config.publicUrl };
        process.stdout.write(await orgCommand(pool, positionals.slice(1), options, mail, (line) => process.stderr.write(`${line}\n`)));
      });
      return;
    }
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  fail(messageOf(error));
});
