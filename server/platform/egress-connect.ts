import dns from 'node:dns/promises';
import net from 'node:net';
import { createRemoteJWKSet, customFetch, type FetchImplementation, type RemoteJWKSetOptions } from 'jose';
import { currentEgressPolicy, egressFetch, refusal } from './egress';

/**
 * The egress policy (egress.ts) for connections that a library or another process opens itself: database
 * drivers (pg, mysql2), redis (ioredis), LDAP (ldapjs), SMTP, SFTP (ssh2) and git, which runs as a child
 * process. Their sockets cannot take the policy's `lookup`, so the host they will connect to is judged
 * first: its name (a refused name is refused before any DNS query), then every address it resolves to —
 * one refused address refuses it, since the driver may pick any of them. An IP literal is judged as it is.
 *
 * What this does not cover (docs/OPERATIONS.md "Egress policy"): the driver resolves the name again when it
 * connects, so a name whose DNS answer changes between the check and the connection (DNS rebinding) can
 * still reach a refused address; git may follow an http redirect of its own. DNS checks (queries to a name
 * server) and ICMP checks are outside the policy.
 */

/** Throws EgressRefused when the policy refuses `host` or any address it resolves to (a lookup failure as the lookup's error). */
export async function assertEgressResolved(host: string): Promise<void> {
  const bare = host.trim().replace(/^\[|\]$/g, '');
  // No host (a unix socket path, a local repository): nothing leaves the machine through the network.
  if (bare === '' || bare.startsWith('/')) return;
  const policy = await currentEgressPolicy();
  const early = refusal(policy, bare);
  if (early) throw early;
  if (net.isIP(bare)) return;
  const addresses = await dns.lookup(bare, { all: true });
  for (const entry of addresses) {
    const refused = refusal(policy, bare, entry.address);
    if (refused) throw refused;
  }
}

/** assertEgressResolved for the host of a URL (ldap://, redis://, postgres://, …); a text that is no URL is left to its reader. */
export async function assertEgressUrl(url: string): Promise<void> {
  const parsed = URL.canParse(url.trim()) ? new URL(url.trim()) : undefined;
  if (parsed?.hostname) await assertEgressResolved(parsed.hostname);
}

/** jose's fetch of a key set through egressFetch: its dispatcher judges the address connected to. */
const jwksFetch: FetchImplementation = async (url, options) => (await egressFetch(url, options as Parameters<typeof egressFetch>[1])) as unknown as Response;

/** createRemoteJWKSet whose fetches follow the egress policy (OIDC providers, the hosted front). */
export function egressRemoteJWKSet(url: URL, options: RemoteJWKSetOptions = {}): ReturnType<typeof createRemoteJWKSet> {
  return createRemoteJWKSet(url, { ...options, [customFetch]: jwksFetch });
}
