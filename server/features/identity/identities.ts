import type pg from 'pg';
import { isRole, type Role } from '../../../common/rbac';
import { AppError } from '../../platform/http/errors';
import { inTransaction, type Queryable } from '../../platform/jobs/db';
import { isRecord } from '../../platform/errors';

/** The identity schema's traits (docs/AUTH.md): an email and a first and last name. */
export interface Traits {
  email: string;
  name: { first: string; last: string };
}

export interface IdentityRow {
  id: string;
  schema_id: string;
  state: 'active' | 'inactive';
  state_changed_at: Date;
  traits: Traits;
  metadata_public: unknown;
  created_at: Date;
  updated_at: Date;
}

export interface AddressRow {
  id: string;
  identity_id: string;
  via: string;
  value: string;
  verified: boolean;
  verified_at: Date | null;
  status: 'pending' | 'sent' | 'completed';
  created_at: Date;
  updated_at: Date;
}

export type CredentialType = 'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'passkey';
/** Credentials that count as a second factor: once one is set up, sessions need aal2. */
export const SECOND_FACTORS: readonly CredentialType[] = ['totp', 'lookup_secret', 'webauthn'];

export interface IdentityWithAddresses extends IdentityRow {
  addresses: AddressRow[];
}

export function parseTraits(value: unknown): Traits {
  const record = isRecord(value) ? value : {};
  const name = isRecord(record.name) ? record.name : {};
  return {
    email: typeof record.email === 'string' ? record.email : '',
    name: { first: typeof name.first === 'string' ? name.first : '', last: typeof name.last === 'string' ? name.last : '' },
  };
}

export function displayName(traits: Traits): string {
  const name = `${traits.name.first} ${traits.name.last}`.trim();
  return name || traits.email;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const IDENTITY_COLUMNS = 'i.id, i.schema_id, i.state, i.state_changed_at, i.traits, i.metadata_public, i.created_at, i.updated_at';

export async function loadIdentity(db: Queryable, id: string): Promise<IdentityWithAddresses | undefined> {
  const { rows } = await db.query<IdentityRow>(`SELECT ${IDENTITY_COLUMNS} FROM identities i JOIN people p ON p.id = i.id AND p.deleted_at IS NULL WHERE i.id = $1`, [id]);
  const row = rows[0];
  if (!row) return undefined;
  const addresses = await db.query<AddressRow>('SELECT * FROM identity_addresses WHERE identity_id = $1 ORDER BY created_at', [id]);
  return { ...row, traits: parseTraits(row.traits), addresses: addresses.rows };
}

/** The identity that signs in with this email and its password hash (undefined: no such active account). */
export async function findByPasswordIdentifier(db: Queryable, email: string): Promise<{ id: string; hash: string } | undefined> {
  const { rows } = await db.query<{ id: string; hash: unknown }>(
    `SELECT i.id, c.config->>'hashed_password' AS hash
       FROM identity_credential_identifiers ci
       JOIN identities i ON i.id = ci.identity_id AND i.state = 'active'
       JOIN people p ON p.id = i.id AND p.deleted_at IS NULL
       JOIN identity_credentials c ON c.identity_id = i.id AND c.type = 'password'
      WHERE ci.type = 'password' AND ci.identifier = $1`,
    [normalizeEmail(email)],
  );
  const row = rows[0];
  return row && typeof row.hash === 'string' ? { id: row.id, hash: row.hash } : undefined;
}

/** An active identity by any of its addresses (recovery and verification). */
export async function findByAddress(db: Queryable, email: string): Promise<{ id: string; address: AddressRow } | undefined> {
  const { rows } = await db.query<AddressRow>(
    `SELECT a.* FROM identity_addresses a
       JOIN identities i ON i.id = a.identity_id AND i.state = 'active'
       JOIN people p ON p.id = i.id AND p.deleted_at IS NULL
      WHERE a.via = 'email' AND lower(a.value) = $1`,
    [normalizeEmail(email)],
  );
  const row = rows[0];
  return row ? { id: row.identity_id, address: row } : undefined;
}

export async function credentialConfigs(db: Queryable, identityId: string): Promise<Map<CredentialType, Record<string, unknown>>> {
  const { rows } = await db.query<{ type: CredentialType; config: unknown }>('SELECT type, config FROM identity_credentials WHERE identity_id = $1', [identityId]);
  return new Map(rows.map((row) => [row.type, isRecord(row.config) ? row.config : {}]));
}

export async function saveCredential(db: Queryable, identityId: string, type: CredentialType, config: Record<string, unknown>): Promise<void> {
  await db.query(
    `INSERT INTO identity_credentials (identity_id, type, config) VALUES ($1, $2, $3)
     ON CONFLICT (identity_id, type) DO UPDATE SET config = EXCLUDED.config`,
    [identityId, type, JSON.stringify(config)],
  );
}

export async function removeCredential(db: Queryable, identityId: string, type: CredentialType): Promise<void> {
  await db.query('DELETE FROM identity_credentials WHERE identity_id = $1 AND type = $2', [identityId, type]);
  await db.query('DELETE FROM identity_credential_identifiers WHERE identity_id = $1 AND type = $2', [identityId, type]);
}

export async function hasSecondFactor(db: Queryable, identityId: string): Promise<boolean> {
  const { rows } = await db.query<{ yes: boolean }>('SELECT EXISTS (SELECT 1 FROM identity_credentials WHERE identity_id = $1 AND type = ANY($2)) AS yes', [
    identityId,
    SECOND_FACTORS,
  ]);
  return rows[0]?.yes ?? false;
}

export async function rolesOf(db: Queryable, personId: string): Promise<Role[]> {
  const { rows } = await db.query<{ role: string }>('SELECT role FROM person_roles WHERE person_id = $1 ORDER BY role', [personId]);
  return rows.map((row) => row.role).filter(isRole);
}

export interface NewIdentity {
  traits: Traits;
  /** An argon2 hash; absent for an invited person who sets a password through recovery. */
  passwordHash?: string;
  /** Roles to give; `firstIsAdmin` makes the first identity of an install an admin whatever this says. */
  roles: Role[];
  firstIsAdmin?: boolean;
  verified?: boolean;
  createdBy?: string;
}

function isUniqueViolation(error: unknown): boolean {
  return isRecord(error) && error.code === '23505';
}

export const DUPLICATE_EMAIL = 'an account with this email address exists already';

/**
 * Creates person, identity, password credential, email address and roles in one transaction. Two first
 * registrations at once cannot both become admin: the count happens under an advisory lock.
 */
export async function createIdentity(pool: pg.Pool, input: NewIdentity): Promise<{ id: string; roles: Role[] }> {
  const email = input.traits.email.trim();
  try {
    return await inTransaction(pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('watchkeeper.identities.create'))");
      const existing = await client.query('SELECT 1 FROM identity_addresses WHERE via = $1 AND lower(value) = $2', ['email', normalizeEmail(email)]);
      if (existing.rowCount) throw new AppError('conflict', DUPLICATE_EMAIL);
      let roles = input.roles;
      if (input.firstIsAdmin) {
        const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM identities');
        if ((rows[0]?.n ?? 0) === 0) roles = ['admin'];
      }
      const traits: Traits = { email, name: { first: input.traits.name.first.trim(), last: input.traits.name.last.trim() } };
      const person = await client.query<{ id: string }>(
        "INSERT INTO people (name, email, type) VALUES ($1, $2, 'identity') RETURNING id",
        [displayName(traits), email],
      );
      const id = person.rows[0]?.id;
      if (!id) throw new Error('people insert returned no id');
      await client.query('INSERT INTO identities (id, traits) VALUES ($1, $2)', [id, JSON.stringify(traits)]);
      await client.query(
        'INSERT INTO identity_addresses (identity_id, via, value, verified, verified_at, status) VALUES ($1, $2, $3, $4, $5, $6)',
        [id, 'email', email, input.verified ?? false, input.verified ? new Date() : null, input.verified ? 'completed' : 'pending'],
      );
      if (input.passwordHash) {
        await client.query('INSERT INTO identity_credentials (identity_id, type, config) VALUES ($1, $2, $3)', [id, 'password', JSON.stringify({ hashed_password: input.passwordHash })]);
        await client.query('INSERT INTO identity_credential_identifiers (type, identifier, identity_id) VALUES ($1, $2, $3)', ['password', normalizeEmail(email), id]);
      }
      for (const role of roles) await client.query('INSERT INTO person_roles (person_id, role) VALUES ($1, $2)', [id, role]);
      return { id, roles };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', DUPLICATE_EMAIL);
    throw error;
  }
}

/** Sets (or replaces) the password and makes the email its identifier. */
export async function setPassword(db: Queryable, identityId: string, passwordHash: string): Promise<void> {
  await saveCredential(db, identityId, 'password', { hashed_password: passwordHash });
  const { rows } = await db.query<{ traits: unknown }>('SELECT traits FROM identities WHERE id = $1', [identityId]);
  const email = parseTraits(rows[0]?.traits).email;
  await db.query('DELETE FROM identity_credential_identifiers WHERE identity_id = $1 AND type = $2', [identityId, 'password']);
  await db.query('INSERT INTO identity_credential_identifiers (type, identifier, identity_id) VALUES ($1, $2, $3)', ['password', normalizeEmail(email), identityId]);
}

/**
 * Saves new traits: the person's name and email follow, the password identifier moves to the new email,
 * and a changed address starts unverified.
 */
export async function updateTraits(pool: pg.Pool, identityId: string, traits: Traits): Promise<{ emailChanged: boolean }> {
  try {
    return await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ traits: unknown }>('SELECT traits FROM identities WHERE id = $1 FOR UPDATE', [identityId]);
      const before = parseTraits(rows[0]?.traits);
      const emailChanged = normalizeEmail(before.email) !== normalizeEmail(traits.email);
      await client.query('UPDATE identities SET traits = $2 WHERE id = $1', [identityId, JSON.stringify(traits)]);
      await client.query('UPDATE people SET name = $2, email = $3, updated_at = now() WHERE id = $1', [identityId, displayName(traits), traits.email]);
      if (emailChanged) {
        await client.query('DELETE FROM identity_addresses WHERE identity_id = $1', [identityId]);
        await client.query('INSERT INTO identity_addresses (identity_id, via, value) VALUES ($1, $2, $3)', [identityId, 'email', traits.email]);
        await client.query('UPDATE identity_credential_identifiers SET identifier = $2 WHERE identity_id = $1 AND type = $3', [identityId, normalizeEmail(traits.email), 'password']);
      } else if (before.email !== traits.email) {
        await client.query('UPDATE identity_addresses SET value = $2 WHERE identity_id = $1', [identityId, traits.email]);
      }
      return { emailChanged };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', DUPLICATE_EMAIL);
    throw error;
  }
}

export async function markAddressVerified(db: Queryable, identityId: string, email: string): Promise<void> {
  await db.query(
    "UPDATE identity_addresses SET verified = true, verified_at = coalesce(verified_at, now()), status = 'completed' WHERE identity_id = $1 AND lower(value) = $2",
    [identityId, normalizeEmail(email)],
  );
}

export async function markAddressSent(db: Queryable, identityId: string, email: string): Promise<void> {
  await db.query("UPDATE identity_addresses SET status = 'sent' WHERE identity_id = $1 AND lower(value) = $2 AND NOT verified", [identityId, normalizeEmail(email)]);
}

export async function identityCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM identities');
  return rows[0]?.n ?? 0;
}
