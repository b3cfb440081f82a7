import ldap from 'ldapjs';
import { z } from 'zod';
import { defineCheckType } from '../define';
import { assertEgressUrl } from '../../../platform/egress-connect';
import { envVarField, redactConnection, safeMessage } from '../../../platform/peers/credentials';

/** Entries handed to expressions, and DNs kept with each result. */
const MAX_ENTRIES = 100;
const KEPT_DNS = 20;

/**
 * canary-checker's LDAPCheck: `url` (ldap:// or ldaps://), `username` (the DN to bind as) and `password`,
 * `bindDN` (despite its name, the base DN searched), `userSearch` (the filter), `skipTLSVerify`. The older
 * `host` and `auth:` form is not read.
 */
const schema = z
  .object({
    url: z.string().trim().regex(/^ldaps?:\/\/[^\s]+$/i, 'must be ldap://host:389 or ldaps://host:636').optional(),
    connection: z.string().trim().regex(/^connection:\/\//, 'must be a connection reference: connection://<namespace>/<name>').optional(),
    username: envVarField.optional(),
    password: envVarField.optional(),
    bindDN: z.string({ message: 'is required: the base DN to search, e.g. ou=users,dc=example,dc=com' }).trim().min(1, 'is required: the base DN to search'),
    userSearch: z.string().trim().optional(),
    skipTLSVerify: z.boolean().optional(),
  })
  .loose()
  // A connection gives the url when the check runs (server/platform/secrets/spec-references.ts).
  // Checked with the other fields' problems (`when`), not only once they are all valid.
  .superRefine((spec, ctx) => {
    if (!spec?.url && !spec?.connection) ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required (ldap://host:389 or ldaps://host:636; the older host field is not read), or a connection' });
  }, { when: () => true })
  .transform((spec) => ({ ...spec, url: spec.url ?? '' }));

type LdapSpec = z.infer<typeof schema>;

interface FoundEntry {
  dn: string;
  attributes: Record<string, string | string[]>;
}

/** Attributes worth reading in expressions; password hashes never leave the server's answer. */
function entryOf(entry: ldap.SearchEntry): FoundEntry {
  const attributes: Record<string, string | string[]> = {};
  for (const attribute of entry.pojo.attributes) {
    if (attribute.type.toLowerCase() === 'userpassword') continue;
    attributes[attribute.type] = attribute.values.length === 1 ? (attribute.values[0] ?? '') : attribute.values;
  }
  return { dn: entry.pojo.objectName, attributes };
}

function connect(client: ldap.Client): Promise<void> {
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('connectError', reject);
    client.once('connectTimeout', () => reject(new Error('connection timed out')));
    client.once('error', reject);
  });
}

function bind(client: ldap.Client, dn: string, password: string): Promise<void> {
  return new Promise((resolve, reject) => client.bind(dn, password, (error) => (error ? reject(error) : resolve())));
}

function search(client: ldap.Client, spec: LdapSpec): Promise<{ count: number; entries: FoundEntry[] }> {
  return new Promise((resolve, reject) => {
    client.search(spec.bindDN, { scope: 'sub', filter: spec.userSearch || '(objectClass=*)' }, (error, response) => {
      if (error) return reject(error);
      let count = 0;
      const entries: FoundEntry[] = [];
      response.on('searchEntry', (entry) => {
        count += 1;
        if (entries.length < MAX_ENTRIES) entries.push(entryOf(entry));
      });
      response.on('error', reject);
      response.on('end', () => resolve({ count, entries }));
    });
  });
}

/**
 * `ldap`: connects, binds as `username` (anonymously without one), searches `bindDN` and its subtree for
 * `userSearch`, and passes when at least one entry matches. Variables: count, entries ({dn, attributes}).
 */
export const ldapCheck = defineCheckType({
  type: 'ldap',
  label: 'LDAP',
  icon: 'book-user',
  schema,
  endpoint: (spec) => `${redactConnection(spec.url)} ${spec.bindDN}`,
  async run(spec, ctx) {
    // ldapjs connects as soon as the client exists: the egress policy judges the host first.
    try {
      await assertEgressUrl(spec.url);
    } catch (error) {
      const reason = safeMessage(error, [spec.password]);
      return { pass: false, duration: 0, message: `could not connect to ${redactConnection(spec.url)}: ${reason}`, error: reason, data: { count: 0, entries: [] } };
    }
    const client = ldap.createClient({
      url: spec.url,
      connectTimeout: ctx.timeoutMs,
      timeout: ctx.timeoutMs,
      reconnect: false,
      tlsOptions: { rejectUnauthorized: !spec.skipTLSVerify },
    });
    // Errors reach the pending call (connect, bind, search); this listener keeps a second one from crashing.
    client.on('error', () => undefined);
    const connected = connect(client);
    const abort = () => client.destroy();
    ctx.signal.addEventListener('abort', abort, { once: true });
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let step = 'connect to';
    try {
      await connected;
      if (spec.username) {
        step = `bind as ${spec.username} to`;
        await bind(client, spec.username, spec.password ?? '');
      }
      step = 'search';
      const { count, entries } = await search(client, spec);
      const duration = elapsed();
      const data = { count, entries };
      const details = { count, dns: entries.slice(0, KEPT_DNS).map((entry) => entry.dn) };
      const filter = spec.userSearch || '(objectClass=*)';
      if (count === 0) return { pass: false, duration, message: `no entries under ${spec.bindDN} match ${filter}`, data, details };
      return { pass: true, duration, message: `${count} entr${count === 1 ? 'y' : 'ies'} under ${spec.bindDN} match ${filter}`, data, details };
    } catch (error) {
      const reason = ctx.signal.aborted ? 'timed out' : safeMessage(error, [spec.password]);
      const where = step === 'search' ? `search ${spec.bindDN} on` : step;
      return { pass: false, duration: elapsed(), message: `could not ${where} ${redactConnection(spec.url)}: ${reason}`, error: reason, data: { count: 0, entries: [] } };
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      connected.catch(() => undefined);
      client.destroy();
    }
  },
});
