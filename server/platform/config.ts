import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { egressEnvironmentProblems } from './egress';

/** Runtime configuration, read from the environment and overridden by command-line flags. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: LogLevel;
  publicUrl: string;
  /** Outgoing mail (recovery, verification and invitation codes); without it codes go to the log. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Demo data (docs/HEALTH.md "Demo"): canaries that check this console and its database. */
  demo: boolean;
  /** The watched resources folder (docs/RESOURCES.md): applied on start and again when a file changes. */
  resourcesDir: string | undefined;
  /** Set when this process runs as an agent of an upstream console (docs/AGENTS.md). */
  upstream?: UpstreamConfig;
  /** Set when people sign in through an OpenID Connect provider (`--auth oidc`, docs/HOSTED.md). */
  oidc?: OidcConfig;
  /** Set when this server is an organization backend of a hosted front (`--auth trusted-front`, docs/HOSTED.md). */
  trustedFront?: TrustedFrontConfig;
  /** Set when `WATCHKEEPER_EXEC_USER` is: the user exec scripts run as when the console runs as root (`nobody` without it; `root` turns it off, unsafe). Scripts read it through execUserSetting. */
  execUser?: string;
  /**
   * Folders log backends may read under (`WATCHKEEPER_LOG_ROOTS`, docs/LOGS.md "Where backends may read"):
   * absolute paths; by default only `./logs` (DEFAULT_LOG_ROOT). The data directory is never readable.
   */
  logRoots?: string[];
  /**
   * HTTPS (docs/OPERATIONS.md "HTTPS"). Absent: `auto`, the console's own CA in `<data dir>/tls` and http and
   * https on the same port. Set when TLS=off or a certificate is given (TLS_CERT_FILE and TLS_KEY_FILE).
   */
  tls?: TlsConfig;
  /**
   * Peers whose X-Forwarded-For/-Proto/-Host are believed (TRUSTED_PROXIES): addresses, CIDRs or the names
   * loopback, linklocal, uniquelocal. Absent: DEFAULT_TRUSTED_PROXIES (loopback); an empty list: nobody.
   */
  trustedProxies?: string[];
}

/** `TLS=off`, or a certificate of the operator's (`TLS_CERT_FILE`, `TLS_KEY_FILE`, optional `TLS_CA_FILE`). */
export type TlsConfig = { mode: 'off' } | { mode: 'files'; certFile: string; keyFile: string; caFile?: string };

/** Proxies trusted when TRUSTED_PROXIES is not set: only this machine (a reverse proxy or the hosted front beside it). */
export const DEFAULT_TRUSTED_PROXIES = ['loopback'];

/** `serve --auth trusted-front`: requests carry the hosted front's short-lived JWT, checked against its JWKS. */
export interface TrustedFrontConfig {
  /** The front's public URL, as its tokens name it (`iss`); its keys are at `<issuer>/api/auth/jwks`. */
  issuer: string;
  /** The organization id this backend serves (`aud`); without it any organization of the front is accepted. */
  audience?: string;
}

/** `serve --auth oidc`: sign-in through an OpenID Connect provider instead of the built-in accounts. */
export interface OidcConfig {
  /** The issuer URL exactly as the provider's ID tokens name it (no trailing slash added or removed). */
  issuer: string;
  clientId: string;
  /** Absent for a public client (PKCE only). */
  clientSecret?: string;
  scopes: string[];
  /** The ID-token claim that lists the person's organizations. */
  orgClaim: string;
}

export const AUTH_MODES = ['builtin', 'oidc', 'trusted-front'] as const;

/** `serve --upstream URL --agent-name NAME --token T|--token-file F`: push results to an upstream console. */
export interface UpstreamConfig {
  /** The upstream console's base URL, without a trailing slash. */
  url: string;
  token?: string;
  /** Read at start and again after a refused or failed push: the token rotates without a restart. */
  tokenFile?: string;
  agentName: string;
  /** An empty push at least this often, so upstream shows the agent online (default 30). */
  heartbeatSeconds: number;
  /** The queue is checked at least this often besides the notifications of new rows (default 1000). */
  pushIntervalMs: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Maps each setting to its environment variable and command-line flag. */
export const SETTINGS = {
  port: { env: 'PORT', flag: '--port' },
  host: { env: 'HOST', flag: '--host' },
  databaseUrl: { env: 'DATABASE_URL', flag: '--database-url' },
  dataDir: { env: 'WATCHKEEPER_DATA', flag: '--data' },
  logLevel: { env: 'LOG_LEVEL', flag: '--log-level' },
  publicUrl: { env: 'PUBLIC_URL', flag: '--public-url' },
  smtpUrl: { env: 'SMTP_URL', flag: '--smtp-url' },
  smtpFrom: { env: 'SMTP_FROM', flag: '--smtp-from' },
  demo: { env: 'WATCHKEEPER_DEMO', flag: '--demo' },
  resourcesDir: { env: 'WATCHKEEPER_RESOURCES', flag: '--resources' },
  upstream: { env: 'WATCHKEEPER_UPSTREAM', flag: '--upstream' },
  upstreamToken: { env: 'WATCHKEEPER_UPSTREAM_TOKEN', flag: '--token' },
  upstreamTokenFile: { env: 'WATCHKEEPER_UPSTREAM_TOKEN_FILE', flag: '--token-file' },
  agentName: { env: 'WATCHKEEPER_AGENT_NAME', flag: '--agent-name' },
  agentHeartbeatSeconds: { env: 'WATCHKEEPER_AGENT_HEARTBEAT_SECONDS', flag: '--agent-heartbeat-seconds' },
  agentPushIntervalMs: { env: 'WATCHKEEPER_AGENT_PUSH_INTERVAL_MS', flag: '--agent-push-interval-ms' },
  auth: { env: 'WATCHKEEPER_AUTH', flag: '--auth' },
  oidcIssuer: { env: 'WATCHKEEPER_OIDC_ISSUER', flag: '--oidc-issuer' },
  oidcClientId: { env: 'WATCHKEEPER_OIDC_CLIENT_ID', flag: '--oidc-client-id' },
  oidcClientSecret: { env: 'WATCHKEEPER_OIDC_CLIENT_SECRET', flag: '--oidc-client-secret' },
  oidcClientSecretFile: { env: 'WATCHKEEPER_OIDC_CLIENT_SECRET_FILE', flag: '--oidc-client-secret-file' },
  oidcScopes: { env: 'WATCHKEEPER_OIDC_SCOPES', flag: '--oidc-scopes' },
  oidcOrgClaim: { env: 'WATCHKEEPER_OIDC_ORG_CLAIM', flag: '--oidc-org-claim' },
  trustedIssuer: { env: 'WATCHKEEPER_TRUSTED_ISSUER', flag: '--trusted-issuer' },
  trustedAudience: { env: 'WATCHKEEPER_TRUSTED_AUDIENCE', flag: '--trusted-audience' },
  tls: { env: 'TLS', flag: '--tls' },
  tlsCertFile: { env: 'TLS_CERT_FILE', flag: '--tls-cert' },
  tlsKeyFile: { env: 'TLS_KEY_FILE', flag: '--tls-key' },
  tlsCaFile: { env: 'TLS_CA_FILE', flag: '--tls-ca' },
  trustedProxies: { env: 'TRUSTED_PROXIES', flag: '--trusted-proxies' },
} as const;
type SettingKey = keyof typeof SETTINGS;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const portSchema = z.coerce.number().int().min(0).max(65535);

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Hides the password of a database URL so it can be shown in messages and logs. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/:[^:@/]*@/, ':***@');
  }
}

/**
 * Reads the configuration. Flags win over environment variables. Every bad value is reported at once,
 * naming the variable or flag it came from and the value (passwords redacted).
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Partial<Record<SettingKey, string>> = {}): Config {
  const problems: string[] = [];
  const raw = (key: SettingKey): { value: string | undefined; from: string } => {
    const flagValue = flags[key];
    if (flagValue !== undefined) return { value: flagValue, from: SETTINGS[key].flag };
    const envValue = env[SETTINGS[key].env];
    return { value: envValue === '' ? undefined : envValue, from: SETTINGS[key].env };
  };

  const portIn = raw('port');
  let port = 3000;
  if (portIn.value !== undefined) {
    const parsed = portSchema.safeParse(portIn.value.trim());
    if (parsed.success && /^\d+$/.test(portIn.value.trim())) port = parsed.data;
    else problems.push(`${portIn.from}=${JSON.stringify(portIn.value)} is not a port number (0-65535)`);
  }

  const hostIn = raw('host');
  const host = hostIn.value?.trim() || 'localhost';
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) problems.push(`${hostIn.from}=${JSON.stringify(hostIn.value)} is not a host name or address`);

  const dbIn = raw('databaseUrl');
  const databaseUrl = dbIn.value?.trim() || undefined;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    problems.push(`${dbIn.from}=${JSON.stringify(redactUrl(databaseUrl))} is not a postgres:// or postgresql:// URL with a host`);
  }

  const dataIn = raw('dataDir');
  const dataDir = path.resolve(dataIn.value?.trim() || 'data');

  const levelIn = raw('logLevel');
  const levelValue = (levelIn.value ?? 'info').trim().toLowerCase();
  const logLevel = LOG_LEVELS.find((level) => level === levelValue);
  if (logLevel === undefined) {
    problems.push(`${levelIn.from}=${JSON.stringify(levelIn.value)} is not one of ${LOG_LEVELS.join(', ')}`);
  }

  const tls = readTls(raw, problems);
  const trustedProxies = readTrustedProxies(raw, problems);

  const publicIn = raw('publicUrl');
  const displayHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  let publicUrl = `${tls?.mode === 'files' ? 'https' : 'http'}://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`;
  if (publicIn.value !== undefined) {
    if (isHttpUrl(publicIn.value.trim())) publicUrl = publicIn.value.trim().replace(/\/+$/, '');
    else problems.push(`${publicIn.from}=${JSON.stringify(publicIn.value)} is not an http:// or https:// URL`);
  }

  const smtpIn = raw('smtpUrl');
  const smtpUrl = smtpIn.value?.trim() || undefined;
  if (smtpUrl !== undefined && !isSmtpUrl(smtpUrl)) {
    problems.push(`${smtpIn.from}=${JSON.stringify(redactUrl(smtpUrl))} is not an smtp:// or smtps:// URL with a host`);
  }
  const fromIn = raw('smtpFrom');
  const smtpFrom = fromIn.value?.trim() || 'Watchkeeper <watchkeeper@localhost>';
  if (!/^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(smtpFrom)) problems.push(`${fromIn.from}=${JSON.stringify(fromIn.value)} is not an email address such as "Ops <ops@example.com>"`);

  const demoIn = raw('demo');
  const demoValue = (demoIn.value ?? 'false').trim().toLowerCase();
  const demo = ['1', 'true', 'yes', 'on'].includes(demoValue);
  if (!demo && !['0', 'false', 'no', 'off'].includes(demoValue)) problems.push(`${demoIn.from}=${JSON.stringify(demoIn.value)} is not true or false`);

  const resourcesIn = raw('resourcesDir');
  const resourcesDir = resourcesIn.value?.trim() ? path.resolve(resourcesIn.value.trim()) : undefined;
  const logRoots = logRootsSetting(env);
  if (logRoots instanceof Error) problems.push(logRoots.message);

  const execUser = execUserSetting(env);
  if (execUser instanceof Error) problems.push(execUser.message);

  // The egress policy's variables (docs/OPERATIONS.md "Egress policy"); server/platform/egress.ts applies them.
  problems.push(...egressEnvironmentProblems(env));

  const upstream = readUpstream(raw, problems);
  const oidc = readOidc(raw, problems);
  const trustedFront = readTrustedFront(raw, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port, host, databaseUrl, dataDir, logLevel: logLevel ?? 'info', publicUrl, smtpUrl, smtpFrom, demo, resourcesDir,
    ...(typeof execUser === 'string' && env[EXEC_USER_ENV]?.trim() ? { execUser } : {}),
    ...(upstream ? { upstream } : {}), ...(oidc ? { oidc } : {}), ...(trustedFront ? { trustedFront } : {}),
    ...(Array.isArray(logRoots) ? { logRoots } : {}),
    ...(tls ? { tls } : {}), ...(trustedProxies ? { trustedProxies } : {}),
  };
}

export const LOG_ROOTS_ENV = 'WATCHKEEPER_LOG_ROOTS';
/** The console's own log folder, relative to the working directory as the default data directory is: the one log root by default. */
export const DEFAULT_LOG_ROOT = 'logs';

/**
 * `WATCHKEEPER_LOG_ROOTS`: the folders log backends may read under, separated by `:` (relative ones from the
 * working directory); unset or empty: `./logs` only; `none`: no folder at all.
 */
export function logRootsSetting(env: NodeJS.ProcessEnv): string[] | Error {
  const value = env[LOG_ROOTS_ENV]?.trim();
  if (!value) return [path.resolve(DEFAULT_LOG_ROOT)];
  if (value.toLowerCase() === 'none') return [];
  const roots = value.split(path.delimiter).map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (roots.length === 0) return new Error(`${LOG_ROOTS_ENV}=${JSON.stringify(env[LOG_ROOTS_ENV])} names no folder (separate folders with "${path.delimiter}", or say none)`);
  return roots.map((root) => path.resolve(root));
}

export const EXEC_USER_ENV = 'WATCHKEEPER_EXEC_USER';

/**
 * `WATCHKEEPER_EXEC_USER`: the unprivileged user exec scripts (checks, playbook actions, scrapers) run as
 * when the console runs as root; `nobody` by default. `root` runs them as the console itself (unsafe: they
 * can read the data directory). A user name or a numeric uid; whether it exists is checked when a script runs.
 */
export function execUserSetting(env: NodeJS.ProcessEnv): string | Error {
  const value = env[EXEC_USER_ENV]?.trim() || 'nobody';
  if (!/^(?:[A-Za-z_][A-Za-z0-9_.-]*\$?|\d+)$/.test(value)) return new Error(`${EXEC_USER_ENV}=${JSON.stringify(env[EXEC_USER_ENV])} is not a user name or a numeric uid`);
  return value;
}

/** Agent names as upstream accepts them (POST /api/agent/generate). */
export const AGENT_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** The agent settings: all of them or none (besides the optional ones), each problem naming its flag. */
function readUpstream(raw: (key: SettingKey) => { value: string | undefined; from: string }, problems: string[]): UpstreamConfig | undefined {
  const urlIn = raw('upstream');
  const tokenIn = raw('upstreamToken');
  const fileIn = raw('upstreamTokenFile');
  const nameIn = raw('agentName');
  const heartbeatIn = raw('agentHeartbeatSeconds');
  const intervalIn = raw('agentPushIntervalMs');
  const url = urlIn.value?.trim();
  if (!url) {
    for (const setting of [tokenIn, fileIn, nameIn]) {
      if (setting.value?.trim()) problems.push(`${setting.from} is set but --upstream (WATCHKEEPER_UPSTREAM) is not: an agent needs the URL of its upstream console`);
    }
    return undefined;
  }
  if (!isHttpUrl(url)) problems.push(`${urlIn.from}=${JSON.stringify(url)} is not an http:// or https:// URL`);
  const agentName = nameIn.value?.trim() ?? '';
  if (!agentName) problems.push(`--agent-name (WATCHKEEPER_AGENT_NAME) is required with ${urlIn.from}: the name the agent was registered with upstream`);
  else if (agentName.length > 63 || !AGENT_NAME.test(agentName)) {
    problems.push(`${nameIn.from}=${JSON.stringify(agentName)} is not an agent name (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 63 characters)`);
  }
  const token = tokenIn.value?.trim() || undefined;
  const tokenFile = fileIn.value?.trim() ? path.resolve(fileIn.value.trim()) : undefined;
  if (!token && !tokenFile) problems.push(`--token (WATCHKEEPER_UPSTREAM_TOKEN) or --token-file (WATCHKEEPER_UPSTREAM_TOKEN_FILE) is required with ${urlIn.from}: the agent's token from upstream (Settings → Agents)`);
  if (tokenFile) {
    try {
      if (!fs.readFileSync(tokenFile, 'utf8').trim()) problems.push(`${fileIn.from}=${JSON.stringify(tokenFile)}: the file is empty`);
    } catch (error) {
      problems.push(`${fileIn.from}=${JSON.stringify(tokenFile)} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let heartbeatSeconds = 30;
  if (heartbeatIn.value !== undefined) {
    const value = Number(heartbeatIn.value.trim());
    if (Number.isInteger(value) && value >= 1 && value <= 3600) heartbeatSeconds = value;
    else problems.push(`${heartbeatIn.from}=${JSON.stringify(heartbeatIn.value)} is not a number of seconds (1-3600)`);
  }
  let pushIntervalMs = 1000;
  if (intervalIn.value !== undefined) {
    const value = Number(intervalIn.value.trim());
    if (Number.isInteger(value) && value >= 10 && value <= 600_000) pushIntervalMs = value;
    else problems.push(`${intervalIn.from}=${JSON.stringify(intervalIn.value)} is not a number of milliseconds (10-600000)`);
  }
  return { url: url.replace(/\/+$/, ''), ...(token ? { token } : {}), ...(tokenFile ? { tokenFile } : {}), agentName, heartbeatSeconds, pushIntervalMs };
}

/** `--auth oidc` and its provider settings, each problem naming its flag; OIDC settings without it are refused. */
function readOidc(raw: (key: SettingKey) => { value: string | undefined; from: string }, problems: string[]): OidcConfig | undefined {
  const modeIn = raw('auth');
  const mode = (modeIn.value ?? 'builtin').trim().toLowerCase();
  const issuerIn = raw('oidcIssuer');
  const idIn = raw('oidcClientId');
  const secretIn = raw('oidcClientSecret');
  const fileIn = raw('oidcClientSecretFile');
  if (!AUTH_MODES.some((known) => known === mode)) {
    problems.push(`${modeIn.from}=${JSON.stringify(modeIn.value)} is not one of ${AUTH_MODES.join(', ')}`);
    return undefined;
  }
  if (mode !== 'oidc') {
    for (const setting of [issuerIn, idIn, secretIn, fileIn]) {
      if (setting.value?.trim()) problems.push(`${setting.from} is set but --auth (WATCHKEEPER_AUTH) is not oidc: the OIDC settings only apply to sign-in through a provider`);
    }
    return undefined;
  }
  const issuer = issuerIn.value?.trim() ?? '';
  if (!issuer) problems.push(`--oidc-issuer (WATCHKEEPER_OIDC_ISSUER) is required with ${modeIn.from}=oidc: the provider's issuer URL`);
  else if (!isHttpUrl(issuer)) problems.push(`${issuerIn.from}=${JSON.stringify(issuer)} is not an http:// or https:// URL`);
  const clientId = idIn.value?.trim() ?? '';
  if (!clientId) problems.push(`--oidc-client-id (WATCHKEEPER_OIDC_CLIENT_ID) is required with ${modeIn.from}=oidc: the client id registered at the provider`);
  let clientSecret = secretIn.value?.trim() || undefined;
  const secretFile = fileIn.value?.trim() ? path.resolve(fileIn.value.trim()) : undefined;
  if (clientSecret && secretFile) problems.push(`${secretIn.from} and ${fileIn.from} are both set: give the client secret one way`);
  else if (secretFile) {
    try {
      clientSecret = fs.readFileSync(secretFile, 'utf8').trim();
      if (!clientSecret) problems.push(`${fileIn.from}=${JSON.stringify(secretFile)}: the file is empty`);
    } catch (error) {
      problems.push(`${fileIn.from}=${JSON.stringify(secretFile)} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const scopesIn = raw('oidcScopes');
  const scopes = (scopesIn.value ?? 'openid profile email').split(/[\s,]+/).filter((scope) => scope !== '');
  if (!scopes.includes('openid')) problems.push(`${scopesIn.from}=${JSON.stringify(scopesIn.value)} must include openid`);
  const claimIn = raw('oidcOrgClaim');
  const orgClaim = claimIn.value?.trim() || 'organizations';
  return { issuer, clientId, ...(clientSecret ? { clientSecret } : {}), scopes, orgClaim };
}

/** `--auth trusted-front` and the front it trusts, each problem naming its flag; its settings without it are refused. */
function readTrustedFront(raw: (key: SettingKey) => { value: string | undefined; from: string }, problems: string[]): TrustedFrontConfig | undefined {
  const modeIn = raw('auth');
  const issuerIn = raw('trustedIssuer');
  const audienceIn = raw('trustedAudience');
  if ((modeIn.value ?? 'builtin').trim().toLowerCase() !== 'trusted-front') {
    for (const setting of [issuerIn, audienceIn]) {
      if (setting.value?.trim()) problems.push(`${setting.from} is set but --auth (WATCHKEEPER_AUTH) is not trusted-front: it only applies to an organization backend`);
    }
    return undefined;
  }
  const issuer = issuerIn.value?.trim() ?? '';
  if (!issuer) problems.push(`--trusted-issuer (WATCHKEEPER_TRUSTED_ISSUER) is required with ${modeIn.from}=trusted-front: the public URL of the hosted front`);
  else if (!isHttpUrl(issuer)) problems.push(`${issuerIn.from}=${JSON.stringify(issuer)} is not an http:// or https:// URL`);
  const audience = audienceIn.value?.trim() || undefined;
  return { issuer: issuer.replace(/\/+$/, ''), ...(audience ? { audience } : {}) };
}

/** TLS=auto|off and the operator's certificate files, each problem naming its variable or flag. */
function readTls(raw: (key: SettingKey) => { value: string | undefined; from: string }, problems: string[]): TlsConfig | undefined {
  const modeIn = raw('tls');
  const certIn = raw('tlsCertFile');
  const keyIn = raw('tlsKeyFile');
  const caIn = raw('tlsCaFile');
  const mode = (modeIn.value ?? 'auto').trim().toLowerCase();
  if (mode !== 'auto' && mode !== 'off') {
    problems.push(`${modeIn.from}=${JSON.stringify(modeIn.value)} is not auto or off`);
    return undefined;
  }
  const files = [certIn, keyIn, caIn].filter((setting) => setting.value?.trim());
  if (mode === 'off') {
    for (const setting of files) problems.push(`${setting.from} is set but ${modeIn.from}=off: remove one of them`);
    return files.length > 0 ? undefined : { mode: 'off' };
  }
  if (files.length === 0) return undefined;
  const certFile = certIn.value?.trim() ? path.resolve(certIn.value.trim()) : undefined;
  const keyFile = keyIn.value?.trim() ? path.resolve(keyIn.value.trim()) : undefined;
  const caFile = caIn.value?.trim() ? path.resolve(caIn.value.trim()) : undefined;
  if (!certFile || !keyFile) {
    problems.push(`${certFile ? '--tls-key (TLS_KEY_FILE)' : '--tls-cert (TLS_CERT_FILE)'} is required with ${(certFile ? certIn : keyFile ? keyIn : caIn).from}: a certificate needs its private key (and TLS_CA_FILE alone is not a certificate)`);
    return undefined;
  }
  for (const [setting, file] of [[certIn, certFile], [keyIn, keyFile], [caIn, caFile]] as const) {
    if (!file) continue;
    try {
      if (!fs.readFileSync(file, 'utf8').includes('-----BEGIN ')) problems.push(`${setting.from}=${JSON.stringify(file)} is not a PEM file`);
    } catch (error) {
      problems.push(`${setting.from}=${JSON.stringify(file)} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { mode: 'files', certFile, keyFile, ...(caFile ? { caFile } : {}) };
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUSTED_PROXIES: a comma (or space) list of addresses, CIDRs and proxy-addr's names; `none` trusts nobody. */
function readTrustedProxies(raw: (key: SettingKey) => { value: string | undefined; from: string }, problems: string[]): string[] | undefined {
  const input = raw('trustedProxies');
  if (input.value === undefined) return undefined;
  const entries = input.value.split(/[\s,]+/).filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0]?.toLowerCase() === 'none') return [];
  const list: string[] = [];
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const kind = isIP(address);
    const bits = kind === 6 ? 128 : 32;
    if (PROXY_NAMES.includes(entry.toLowerCase())) list.push(entry.toLowerCase());
    else if (kind !== 0 && rest.length === 0 && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) list.push(entry);
    else problems.push(`${input.from}=${JSON.stringify(input.value)}: ${JSON.stringify(entry)} is not an address, a CIDR such as 10.0.0.0/8, one of ${PROXY_NAMES.join(', ')}, or none`);
  }
  return list;
}
