import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { CliError } from '../../platform/cli-error';
import { AppError } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { parseExpiry } from './api';
import { findOrganization } from '../organizations-admin';
import { createIdentity, findByAddress, setPassword } from './identities';
import { hashPassword, passwordProblem } from './passwords';
import { createAccessToken, parseScopeArgs } from './tokens';

export { CliError };

/**
 * `watchkeeper admin create --email E [--password P] [--name N]`: an admin account, verified, ready to
 * sign in. Without --password one is generated and printed once. An existing account with that email is
 * made an admin (and given the password, when one is passed).
 */
export async function adminCreate(pool: pg.Pool, input: { email: string; password?: string | undefined; name?: string | undefined }): Promise<string> {
  const email = input.email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError(`--email ${JSON.stringify(input.email)} is not an email address`);
  const generated = input.password === undefined;
  const password = input.password ?? randomBytes(15).toString('base64url');
  const problem = await passwordProblem(password, email);
  if (problem) throw new CliError(`--password: ${problem}`);
  const hash = await hashPassword(password);
  const existing = await findByAddress(pool, email);
  if (existing) {
    await inTransaction(pool, async (client) => {
      await client.query("INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin') ON CONFLICT DO NOTHING", [existing.id]);
      if (!generated) await setPassword(client, existing.id, hash);
    });
    return `${email} exists already: it is an admin now${generated ? ' (its password is unchanged)' : ', with the new password'}.\n`;
  }
  const [first = '', ...rest] = (input.name ?? '').trim().split(/\s+/);
  try {
    await createIdentity(pool, { traits: { email, name: { first: first || 'Admin', last: rest.join(' ') } }, passwordHash: hash, roles: ['admin'], verified: true });
  } catch (error) {
    if (error instanceof AppError) throw new CliError(error.message);
    throw error;
  }
  return generated
    ? `created admin ${email}\npassword (shown once, change it in Profile Settings): ${password}\n`
    : `created admin ${email}\n`;
}

/**
 * `watchkeeper token create --user E --name N [--scope S …] [--expiry never|30d|2027-01-31] [--organization ORG]`:
 * prints an API token acting for that person, once, on its own line, for scripts. `--organization` (hosted
 * mode, docs/HOSTED.md "API tokens in hosted mode"): a name, external id or id of an organization the person
 * is a member of; the token works in it. Without it the token has none (refused in oidc mode).
 */
export async function tokenCreate(
  pool: pg.Pool,
  input: { user: string; name: string; scopes: string[]; expiry?: string | undefined; organization?: string | undefined },
): Promise<{ token: string; id: string }> {
  const name = input.name.trim();
  if (!name) throw new CliError('--name is required');
  const found = await findByAddress(pool, input.user.trim());
  if (!found) throw new CliError(`--user ${input.user}: no active account uses this email`);
  const { scopes, problems } = parseScopeArgs(input.scopes);
  if (problems.length > 0) throw new CliError(problems.join('\n'));
  const expiresAt = input.expiry === undefined ? null : parseExpiry(input.expiry);
  if (expiresAt === undefined) throw new CliError(`--expiry ${input.expiry}: use never, a future date (2027-01-31) or a duration (30d, 12h)`);
  const organizationId = input.organization === undefined ? null : await memberOrganization(pool, input.organization, found.id, input.user.trim());
  return createAccessToken(pool, { personId: found.id, name, scopes, expiresAt, createdBy: found.id, organizationId });
}

/** `--organization ORG`: the organization (by name, external id or id, not deleted) the person is a member of. */
async function memberOrganization(pool: pg.Pool, reference: string, personId: string, user: string): Promise<string> {
  if (!reference.trim()) throw new CliError('--organization needs a name, an external id or an id');
  let organization;
  try {
    organization = await findOrganization(pool, reference);
  } catch (error) {
    if (error instanceof AppError) throw new CliError(`--organization ${reference}: ${error.message}`);
    throw error;
  }
  const { rowCount } = await pool.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND person_id = $2', [organization.id, personId]);
  if (!rowCount) throw new CliError(`--organization ${reference}: ${user} is not a member of ${organization.name} (watchkeeper org invite ${JSON.stringify(organization.name)} ${user})`);
  return organization.id;
}
