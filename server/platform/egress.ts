import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher, type RequestInit as UndiciRequestInit, type Response as UndiciResponse } from 'undici';
import { decide } from './auth/decide';
import type { Actor } from './auth/types';
import type { Queryable } from './jobs/db';

/**
 * The egress policy (docs/OPERATIONS.md "Egress policy", issue 35): which destinations the server's own
 * outbound connections may reach — http checks and actions, notification channels, view and scraper http,
 * prometheus, tcp and tls checks, the chart registry, OIDC discovery; database, redis, LDAP, SMTP, SFTP and
 * git connections through egress-connect.ts. The app reads its properties through its pool (app.ts).
 *
 * - By default everything is allowed (monitoring internal services, loopback included, is the point)
 *   except link-local and cloud metadata addresses: 169.254.0.0/16, fe80::/10, fd00:ec2::254,
 *   100.100.100.200 and the metadata host names.
 * - `egress.deny` (property) and `WATCHKEEPER_EGRESS_DENY` (environment) add refused destinations.
 * - `egress.allow` and `WATCHKEEPER_EGRESS_ALLOW` narrow it: when set, a destination must match each list set.
 * - `egress.link_local` = `allow` (or `WATCHKEEPER_EGRESS_LINK_LOCAL=allow`) lifts the built-in refusal.
 *
 * Entries are IP addresses, CIDRs (`10.0.0.0/8`, `fd00::/8`), host names (`db.internal`) or host name
 * suffixes (`*.corp.example` or `.corp.example`), separated by commas, spaces or new lines.
 *
 * It is enforced where the connection is made, on the address actually connected to: a `lookup` wrapper
 * (Node's http, https, net, tls) and an undici dispatcher whose connector checks IP literals and uses
 * that lookup. A name that resolves to a refused address is refused whatever it resolved to before
 * (DNS rebinding), and nothing is sent to a refused address: the refusal comes before connect.
 */

export const EGRESS_ALLOW_PROPERTY = 'egress.allow';
export const EGRESS_DENY_PROPERTY = 'egress.deny';
export const EGRESS_LINK_LOCAL_PROPERTY = 'egress.link_local';
export const EGRESS_PROPERTIES = [EGRESS_ALLOW_PROPERTY, EGRESS_DENY_PROPERTY, EGRESS_LINK_LOCAL_PROPERTY] as const;

/** Where an admin changes it, as refusals say. */
export const EGRESS_WHERE = `Settings → Feature Flags (properties ${EGRESS_ALLOW_PROPERTY}, ${EGRESS_DENY_PROPERTY}, ${EGRESS_LINK_LOCAL_PROPERTY}) or the environment (WATCHKEEPER_EGRESS_ALLOW, WATCHKEEPER_EGRESS_DENY, WATCHKEEPER_EGRESS_LINK_LOCAL); docs/OPERATIONS.md "Egress policy"`;

/** What egressFetch answers (undici's Response). */
export type EgressResponse = UndiciResponse;

/** Redirects followed by egressFetch (same host only). */
export const MAX_SAME_HOST_REDIRECTS = 5;

// ---------------------------------------------------------------------------------------------------
// Addresses

interface Address {
  family: 4 | 6;
  value: bigint;
}

function parseIpv4(text: string): bigint | undefined {
  if (!net.isIPv4(text)) return undefined;
  return text.split('.').reduce((sum, part) => (sum << 8n) + BigInt(Number(part)), 0n);
}

function parseIpv6(text: string): bigint | undefined {
  const bare = text.replace(/%.*$/, '');
  if (!net.isIPv6(bare)) return undefined;
  let head = bare;
  let tail: bigint[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (v4?.[1]) {
    const value = parseIpv4(v4[1]);
    if (value === undefined) return undefined;
    tail = [value >> 16n, value & 0xffffn];
    head = head.slice(0, -v4[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => BigInt(parseInt(group, 16))));
  const before = groups(left);
  const after = [...(right === undefined ? [] : groups(right)), ...tail];
  const all = right === undefined ? [...before, ...tail] : [...before, ...new Array<bigint>(8 - before.length - after.length).fill(0n), ...after];
  if (all.length !== 8) return undefined;
  return all.reduce((sum, group) => (sum << 16n) + group, 0n);
}

/** An IP address, IPv4-mapped and NAT64 IPv6 forms read as the IPv4 address they carry. */
function parseAddress(text: string): Address | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIpv6(bare);
  if (v6 === undefined) return undefined;
  const prefix96 = v6 >> 32n;
  if (prefix96 === 0xffffn || prefix96 === 0x64ff9b0000000000000000n) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

// ---------------------------------------------------------------------------------------------------
// Rules

type Rule = { kind: 'cidr'; family: 4 | 6; base: bigint; bits: number; text: string } | { kind: 'host'; name: string; suffix: boolean; text: string };

function parseRule(entry: string): Rule | string {
  const text = entry.trim().toLowerCase();
  const [addressText = '', bitsText, extra] = text.split('/');
  const address = parseAddress(addressText);
  if (address) {
    // A mapped IPv6 form names the IPv4 address it carries: its prefix counts within the last 32 bits.
    const max = address.family === 4 ? 32 : 128;
    const mappedShift = address.family === 4 && net.isIPv6(addressText.replace(/^\[|\]$/g, '')) ? 96 : 0;
    const bits = bitsText === undefined ? max : Number(bitsText) - mappedShift;
    if (extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > max) return `${JSON.stringify(entry)} is not an address or CIDR`;
    const shift = BigInt(max - bits);
    return { kind: 'cidr', family: address.family, base: (address.value >> shift) << shift, bits, text };
  }
  if (bitsText !== undefined) return `${JSON.stringify(entry)} is not an address or CIDR`;
  const suffix = text.startsWith('*.') || text.startsWith('.');
  const name = text.replace(/^\*?\./, '').replace(/\.$/, '');
  if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) return `${JSON.stringify(entry)} is not an address, CIDR or host name`;
  return { kind: 'host', name, suffix, text };
}

/** A list as written (commas, spaces or new lines between entries): its rules, and what could not be read. */
export function parseRules(text: string | undefined): { rules: Rule[]; problems: string[] } {
  const rules: Rule[] = [];
  const problems: string[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter(Boolean)) {
    const rule = parseRule(entry);
    if (typeof rule === 'string') problems.push(rule);
    else rules.push(rule);
  }
  return { rules, problems };
}

function normalHost(host: string): string {
  return host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

function matchesAddress(rule: Rule, address: Address): boolean {
  if (rule.kind !== 'cidr' || rule.family !== address.family) return false;
  const shift = BigInt((address.family === 4 ? 32 : 128) - rule.bits);
  return (address.value >> shift) << shift === rule.base;
}

function matchesHost(rule: Rule, host: string): boolean {
  if (rule.kind !== 'host') return false;
  return host === rule.name || (rule.suffix && host.endsWith(`.${rule.name}`));
}

/** Link-local and cloud metadata destinations, refused unless `egress.link_local` is `allow`. */
const BUILT_IN = parseRules('169.254.0.0/16 fe80::/10 fd00:ec2::254 100.100.100.200 metadata.google.internal metadata.goog metadata instance-data instance-data.ec2.internal').rules;

export interface EgressPolicy {
  /** Each non-empty list must admit a destination: the environment's (operator) and the property's (admin). */
  allow: Array<{ source: string; rules: Rule[] }>;
  deny: Array<{ source: string; rules: Rule[] }>;
  linkLocal: boolean;
  /** Entries that could not be read (they are ignored), for the operations docs' "what does it say". */
  problems: string[];
}

export interface EgressSettings {
  allow?: string | undefined;
  deny?: string | undefined;
  linkLocal?: string | undefined;
  envAllow?: string | undefined;
  envDeny?: string | undefined;
  envLinkLocal?: string | undefined;
}

/** The policy of these settings (properties and environment). */
export function buildPolicy(settings: EgressSettings): EgressPolicy {
  const problems: string[] = [];
  const list = (source: string, text: string | undefined) => {
    const parsed = parseRules(text);
    problems.push(...parsed.problems.map((problem) => `${source}: ${problem}`));
    return parsed.rules.length > 0 ? [{ source, rules: parsed.rules }] : [];
  };
  const allowed = (value: string | undefined) => /^\s*allow\s*$/i.test(value ?? '');
  return {
    allow: [...list('WATCHKEEPER_EGRESS_ALLOW', settings.envAllow), ...list(EGRESS_ALLOW_PROPERTY, settings.allow)],
    deny: [...list('WATCHKEEPER_EGRESS_DENY', settings.envDeny), ...list(EGRESS_DENY_PROPERTY, settings.deny)],
    linkLocal: allowed(settings.envLinkLocal) || allowed(settings.linkLocal),
    problems,
  };
}

/** What is wrong with the policy's environment variables (the start refuses them, naming each). */
export function egressEnvironmentProblems(env: NodeJS.ProcessEnv): string[] {
  const problems = ['WATCHKEEPER_EGRESS_ALLOW', 'WATCHKEEPER_EGRESS_DENY'].flatMap((name) => parseRules(env[name]).problems.map((problem) => `${name}: ${problem}`));
  const linkLocal = env.WATCHKEEPER_EGRESS_LINK_LOCAL?.trim();
  if (linkLocal && !/^(allow|refuse)$/i.test(linkLocal)) problems.push(`WATCHKEEPER_EGRESS_LINK_LOCAL=${JSON.stringify(linkLocal)} is not allow or refuse`);
  return problems;
}

/** Thrown (or passed to a connect callback) when the policy refuses a destination; nothing was sent. */
export class EgressRefused extends Error {
  readonly code = 'EGRESS_REFUSED';
  constructor(
    readonly destination: string,
    readonly reason: string,
  ) {
    super(`egress to ${destination} is refused by the console's egress policy (${reason}); an admin can change it in ${EGRESS_WHERE}`);
    this.name = 'EgressRefused';
  }
}

function named(host: string, address?: string): string {
  return address && normalHost(address) !== host ? `${host} (${address})` : host;
}

/**
 * Why the policy refuses `host` (a name or an IP literal) connecting to `address` (the resolved IP; for a
 * literal, itself; undefined when only the name is being judged, before resolution), or undefined.
 */
export function refusal(policy: EgressPolicy, hostText: string, addressText?: string): EgressRefused | undefined {
  const host = normalHost(hostText);
  const address = parseAddress(addressText ?? host);
  const destination = named(host, addressText);
  const hits = (rules: Rule[]) => rules.find((rule) => matchesHost(rule, host) || (address !== undefined && matchesAddress(rule, address)));
  for (const list of policy.deny) {
    const rule = hits(list.rules);
    if (rule) return new EgressRefused(destination, `${list.source} lists ${rule.text}`);
  }
  if (!policy.linkLocal && hits(BUILT_IN)) return new EgressRefused(destination, `link-local and cloud metadata addresses; ${EGRESS_LINK_LOCAL_PROPERTY} is not "allow"`);
  // Before resolution a name not in an allow list may still resolve to an allowed address.
  if (addressText === undefined && address === undefined) return undefined;
  for (const list of policy.allow) {
    if (!hits(list.rules)) return new EgressRefused(destination, `not in ${list.source}`);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// The current policy: the environment and the properties of no organization (the server's), read again
// after a few seconds and right after a write of one of them.

const TTL_MS = 5_000;
/** After a write, the properties are read afresh for this long (the write's transaction commits meanwhile). */
const AFTER_WRITE_MS = 2_000;

let source: Queryable | undefined;
let cached: { policy: EgressPolicy; at: number } | undefined;
let loading: Promise<EgressPolicy> | undefined;
let changedAt = 0;

function environmentSettings(): EgressSettings {
  return { envAllow: process.env.WATCHKEEPER_EGRESS_ALLOW, envDeny: process.env.WATCHKEEPER_EGRESS_DENY, envLinkLocal: process.env.WATCHKEEPER_EGRESS_LINK_LOCAL };
}

/** Where the properties are read (the app's pool); without it the policy is the defaults and the environment. */
export function useEgressPolicyFrom(db: Queryable | undefined): void {
  source = db;
  cached = undefined;
}

/** An egress property was written: the next connection reads the policy again. */
export function egressPolicyChanged(): void {
  changedAt = Date.now();
  cached = undefined;
}

async function load(): Promise<EgressPolicy> {
  const settings = environmentSettings();
  if (source) {
    const { rows } = await source.query<{ name: string; value: string }>('SELECT name, value FROM properties WHERE name = ANY($1) AND organization_id IS NULL', [EGRESS_PROPERTIES]);
    const value = (name: string) => rows.find((row) => row.name === name)?.value;
    Object.assign(settings, { allow: value(EGRESS_ALLOW_PROPERTY), deny: value(EGRESS_DENY_PROPERTY), linkLocal: value(EGRESS_LINK_LOCAL_PROPERTY) });
  }
  return buildPolicy(settings);
}

/** The policy now in force. A failed read keeps the last policy (or the defaults), never opens anything up. */
export async function currentEgressPolicy(): Promise<EgressPolicy> {
  const now = Date.now();
  if (cached && now - cached.at < TTL_MS && now - changedAt > AFTER_WRITE_MS) return cached.policy;
  loading ??= load()
    .then((policy) => {
      cached = { policy, at: Date.now() };
      return policy;
    })
    .catch(() => cached?.policy ?? buildPolicy(environmentSettings()))
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

/** Refuses (throws) a destination by its name or IP literal, before any resolution or connection. */
export async function assertEgress(host: string): Promise<void> {
  const refused = refusal(await currentEgressPolicy(), host);
  if (refused) throw refused;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls/http/https/undici: resolves the name, keeps only the addresses the policy
 * admits and connects to those; a name none of whose addresses is admitted is refused.
 */
export function egressLookup(hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void {
  const done: LookupCallback = typeof options === 'function' ? options : (callback as LookupCallback);
  const opts: dns.LookupOptions = typeof options === 'number' ? { family: options } : typeof options === 'object' ? options : {};
  currentEgressPolicy().then(
    (policy) => {
      const early = refusal(policy, hostname);
      if (early) return done(early, opts.all ? [] : '');
      dns.lookup(hostname, { ...opts, all: true }, (error, addresses) => {
        if (error) return done(error, opts.all ? [] : '');
        let first: EgressRefused | undefined;
        const admitted = addresses.filter((entry) => {
          const refused = refusal(policy, hostname, entry.address);
          first ??= refused;
          return !refused;
        });
        if (admitted.length === 0) return done(first ?? Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), opts.all ? [] : '');
        if (opts.all) return done(null, admitted);
        const chosen = admitted[0] as dns.LookupAddress;
        done(null, chosen.address, chosen.family);
      });
    },
    (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), opts.all ? [] : ''),
  );
}

/**
 * Options for `http.request`/`https.request`/`net.connect`/`tls.connect` to `host`: the policy's lookup.
 * Node does not call a lookup for an IP literal, so a literal is judged here (this throws when refused).
 */
export async function egressConnectOptions(host: string): Promise<{ lookup: typeof egressLookup }> {
  await assertEgress(host);
  return { lookup: egressLookup };
}

// ---------------------------------------------------------------------------------------------------
// undici

const connector = buildConnector({ lookup: egressLookup } as buildConnector.BuildOptions);

/** An undici dispatcher whose every connection follows the policy (IP literals judged before connect). */
export const egressDispatcher: Dispatcher = new Agent({
  connect(options, callback) {
    currentEgressPolicy().then(
      (policy) => {
        const host = options.hostname;
        const refused = net.isIP(normalHost(host)) ? refusal(policy, host) : undefined;
        if (refused) return callback(refused, null);
        connector(options, callback);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
});

/** Same host: the host names agree (scheme and port may change, as an http → https upgrade does). */
export function sameHost(a: URL, b: URL): boolean {
  return normalHost(a.hostname) === normalHost(b.hostname);
}

/** The message of a redirect that is not followed because it leads to another host. */
export function crossHostRedirect(from: URL, to: URL): string {
  return `redirected from ${from.host} to another host (${to.host}), which the console's egress policy does not follow; point the URL at ${to.origin} directly`;
}

/**
 * `fetch` through the egress policy: the dispatcher above, and redirects followed only to the same host
 * (at most MAX_SAME_HOST_REDIRECTS; 303 and a POST's 301/302 become GET without a body).
 */
export async function egressFetch(input: string | URL, init: UndiciRequestInit = {}): Promise<UndiciResponse> {
  let url = new URL(input);
  let request: UndiciRequestInit = { ...init, redirect: 'manual', dispatcher: egressDispatcher };
  for (let hop = 0; ; hop++) {
    const response = await undiciFetch(url, request).catch((error: unknown) => {
      // fetch says "fetch failed"; a refusal says itself.
      throw error instanceof Error && error.cause instanceof EgressRefused ? error.cause : error;
    });
    const location = response.headers.get('location');
    if (![301, 302, 303, 307, 308].includes(response.status) || !location || init.redirect === 'manual') return response;
    await response.body?.cancel();
    const next = new URL(location, url);
    if (init.redirect === 'error') throw new Error(`${url.href} redirected to ${next.href}`);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`${url.href} redirected to a ${next.protocol} URL, which is not followed`);
    if (!sameHost(url, next)) throw new Error(`${url.href}: ${crossHostRedirect(url, next)}`);
    if (hop >= MAX_SAME_HOST_REDIRECTS) throw new Error(`${url.href}: more than ${MAX_SAME_HOST_REDIRECTS} redirects`);
    const method = (request.method ?? 'GET').toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      const { body: _body, ...rest } = request;
      request = { ...rest, method: method === 'HEAD' ? 'HEAD' : 'GET' };
    }
    url = next;
  }
}

// ---------------------------------------------------------------------------------------------------
// Who may change it

/** The chart registry of Integrations (docs/INTEGRATIONS.md): its fetches follow this policy, and only an admin sets it. */
export const CHART_REGISTRY_PROPERTY = 'integrations.chart_registry';

/**
 * Properties only an admin (the `admin` role, or write on `rbac`) may write: the egress policy and the
 * chart registry (the `properties` relation is otherwise the feature_flags resource, writable by editors).
 */
export function isAdminOnlyEgressProperty(name: unknown): boolean {
  return typeof name === 'string' && (name.trim().toLowerCase().startsWith('egress.') || name.trim() === CHART_REGISTRY_PROPERTY);
}

/**
 * Why this write to `properties` is refused, or undefined: an admin-only property (old name or new)
 * written by someone without the `admin` role or write on `rbac`; an egress.* row of an organization
 * (hosted mode: the policy is the server's, read from rows of no organization). `actor` undefined is the
 * server itself.
 */
export function egressPropertyRefusal(actor: Actor | undefined, changes: ReadonlyArray<{ old: Record<string, unknown> | null; new: Record<string, unknown> | null }>): string | undefined {
  for (const change of changes) {
    for (const row of [change.old, change.new]) {
      if (!row || !isAdminOnlyEgressProperty(row.name)) continue;
      const name = String(row.name);
      if (actor && !decide(actor, 'rbac', 'update').allowed) {
        return `the property ${name} is an admin setting (${name === CHART_REGISTRY_PROPERTY ? 'the chart registry every viewer\'s page reads' : 'the egress policy of server-side fetches'}): changing it needs the admin role or write on rbac`;
      }
      if (row === change.new && name.trim().toLowerCase().startsWith('egress.') && row.organization_id !== null && row.organization_id !== undefined) {
        return `the property ${name} is the server's egress policy, not an organization's: set it outside any organization, or with WATCHKEEPER_EGRESS_* (docs/OPERATIONS.md "Egress policy")`;
      }
    }
  }
  return undefined;
}

/** Whether a write touched the egress policy (the next connection reads it again). */
export function touchesEgressPolicy(changes: ReadonlyArray<{ old: Record<string, unknown> | null; new: Record<string, unknown> | null }>): boolean {
  return changes.some((change) => [change.old, change.new].some((row) => typeof row?.name === 'string' && row.name.trim().toLowerCase().startsWith('egress.')));
}
