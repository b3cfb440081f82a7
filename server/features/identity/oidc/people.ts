import type pg from 'pg';
import type { JWTPayload } from 'jose';
import { isRole, type Role } from '../../../../common/rbac';
import { AppError } from '../../../platform/http/errors';
import { isRecord } from '../../../platform/errors';
import { inTransaction, type Queryable } from '../../../platform/jobs/db';
import { createIdentity, normalizeEmail } from '../identities';
import { DEFAULT_ROLE, REGISTRATION_DEFAULT_ROLE } from '../kratos/registration';
import { OidcError } from './provider';

/**
 * The person behind an ID token: found by the provider's subject (the identity's 'oidc' credential,
 * identifier '<issuer>#<sub>'), else by a verified email (an existing account gets the credential), else
 * created with the registration's default role (the very first account becomes admin, as with the
 * built-in sign-up). Their organizations follow the organization claim at every sign-in.
 */

export interface Claims {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  first: string;
  last: string;
}

export function claimsOf(payload: JWTPayload): Claims {
  const text = (key: string) => (typeof payload[key] === 'string' ? payload[key].trim() : '');
  let first = text('given_name');
  let last = text('family_name');
  if (!first && !last) {
    const [given = '', ...rest] = text('name').split(/\s+/);
    first = given;
    last = rest.join(' ');
  }
  const email = text('email') || undefined;
  return { subject: payload.sub ?? '', email, emailVerified: payload.email_verified === true, first, last };
}

export interface OrganizationClaim {
  externalId: string;
  name: string;
}

/**
 * The organization claim as providers write it: a string, a list of ids, a list of {id, name} objects
 * (or slug/display_name), or an object keyed by id (Zitadel-style). Anything else counts as none.
 */
export function organizationsOf(value: unknown): OrganizationClaim[] {
  const found = new Map<string, OrganizationClaim>();
  const add = (id: unknown, name: unknown) => {
    const externalId = typeof id === 'string' || typeof id === 'number' ? String(id).trim() : '';
    if (!externalId || externalId.length > 200 || found.has(externalId)) return;
    const display = typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : externalId;
    found.set(externalId, { externalId, name: display });
  };
  const fromObject = (record: Record<string, unknown>) => add(record.id ?? record.slug ?? record.name, record.name ?? record.display_name ?? record.slug);
  if (typeof value === 'string') value.split(/[\s,]+/).forEach((part) => add(part, part));
  else if (Array.isArray(value)) {
    for (const item of value.slice(0, 1000)) {
      if (isRecord(item)) fromObject(item);
      else add(item, item);
    }
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value).slice(0, 1000)) add(key, isRecord(item) ? (item.name ?? item.display_name) : key);
  }
  return [...found.values()];
}

export const identifierOf = (issuer: string, subject: string) => `${issuer}#${subject}`;

interface Found {
  id: string;
  state: string;
}

async function bySubject(db: Queryable, identifier: string): Promise<Found | undefined> {
  const { rows } = await db.query<Found>(
    `SELECT i.id, i.state FROM identity_credential_identifiers ci
       JOIN identities i ON i.id = ci.identity_id
       JOIN people p ON p.id = i.id AND p.deleted_at IS NULL
      WHERE ci.type = 'oidc' AND ci.identifier = $1`,
    [identifier],
  );
  return rows[0];
}

async function byEmail(db: Queryable, email: string): Promise<Found | undefined> {
  const { rows } = await db.query<Found>(
    `SELECT i.id, i.state FROM identity_addresses a
       JOIN identities i ON i.id = a.identity_id
       JOIN people p ON p.id = i.id AND p.deleted_at IS NULL
      WHERE a.via = 'email' AND lower(a.value) = $1`,
    [normalizeEmail(email)],
  );
  return rows[0];
}

async function addCredential(db: Queryable, identityId: string, issuer: string, subject: string): Promise<void> {
  await db.query(
    `INSERT INTO identity_credentials (identity_id, type, config) VALUES ($1, 'oidc', $2)
     ON CONFLICT (identity_id, type) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`,
    [identityId, JSON.stringify({ providers: [{ issuer, subject }] })],
  );
  await db.query("DELETE FROM identity_credential_identifiers WHERE identity_id = $1 AND type = 'oidc'", [identityId]);
  await db.query("INSERT INTO identity_credential_identifiers (type, identifier, identity_id) VALUES ('oidc', $1, $2)", [identifierOf(issuer, subject), identityId]);
}

async function defaultRole(db: Queryable): Promise<Role> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM properties WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization()', [REGISTRATION_DEFAULT_ROLE]);
  const value = rows[0]?.value.trim();
  return isRole(value) ? value : DEFAULT_ROLE;
}

function active(found: Found): string {
  if (found.state !== 'active') throw new OidcError('your account is deactivated in this console: ask an administrator');
  return found.id;
}

/** The person's id, found or created; each refusal is an OidcError the person reads. */
export async function findOrCreatePerson(pool: pg.Pool, issuer: string, claims: Claims): Promise<{ id: string; created: boolean }> {
  if (!claims.subject) throw new OidcError('the ID token names no subject (sub)');
  const identifier = identifierOf(issuer, claims.subject);
  const known = await bySubject(pool, identifier);
  if (known) return { id: active(known), created: false };
  const email = claims.email;
  if (!email) throw new OidcError('the sign-in provider did not share an email address (the email scope): this console needs one for a new account');
  const existing = await byEmail(pool, email);
  if (existing) {
    // Linking by an address the provider has not verified would let anyone who types that address in at
    // the provider take over the account here.
    if (!claims.emailVerified) throw new OidcError(`an account with ${email} exists here, and the provider does not say it verified that address`);
    const id = active(existing);
    await inTransaction(pool, (client) => addCredential(client, id, issuer, claims.subject));
    return { id, created: false };
  }
  try {
    const created = await createIdentity(pool, {
      traits: { email, name: { first: claims.first, last: claims.last } },
      roles: [await defaultRole(pool)],
      firstIsAdmin: true,
      verified: claims.emailVerified,
    });
    await inTransaction(pool, (client) => addCredential(client, created.id, issuer, claims.subject));
    return { id: created.id, created: true };
  } catch (error) {
    // Two first sign-ins of one person at once: the other one created the account.
    if (error instanceof AppError && error.code === 'conflict') {
      const raced = (await bySubject(pool, identifier)) ?? (claims.emailVerified ? await byEmail(pool, email) : undefined);
      if (raced) return { id: active(raced), created: false };
    }
    throw error;
  }
}

/**
 * Makes the person's claim memberships those of this sign-in: organizations are upserted by their
 * external id (a renamed one follows), memberships the claim no longer names are removed; memberships
 * added in the console (source 'console') are left alone.
 */
export async function syncOrganizations(pool: pg.Pool, personId: string, organizations: OrganizationClaim[]): Promise<string[]> {
  return inTransaction(pool, async (client) => {
    const ids: string[] = [];
    for (const organization of organizations) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO organizations (external_id, name) VALUES ($1, $2)
         ON CONFLICT (external_id) DO UPDATE SET name = EXCLUDED.name WHERE organizations.name IS DISTINCT FROM EXCLUDED.name
         RETURNING id`,
        [organization.externalId, organization.name],
      );
      const id = rows[0]?.id ?? (await client.query<{ id: string }>('SELECT id FROM organizations WHERE external_id = $1', [organization.externalId])).rows[0]?.id;
      if (id) ids.push(id);
    }
    await client.query("DELETE FROM organization_members WHERE person_id = $1 AND source = 'claim' AND NOT (organization_id = ANY($2::uuid[]))", [personId, ids]);
    for (const id of ids) {
      await client.query("INSERT INTO organization_members (organization_id, person_id, source) VALUES ($1, $2, 'claim') ON CONFLICT DO NOTHING", [id, personId]);
    }
    return ids;
  });
}
