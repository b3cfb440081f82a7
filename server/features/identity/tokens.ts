import { isTokenScope, presetScopes, TOKEN_OBJECTS, tokenActionsOf, type TokenAction, type TokenObject, type TokenScope } from '../../../common/rbac';
import type { Queryable } from '../../platform/jobs/db';
import { newAccessToken, sha256 } from '../../platform/crypto';

export interface TokenRow {
  id: string;
  name: string;
  person_id: string;
  scopes: TokenScope[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_by: string | null;
  created_at: Date;
  person: { id: string; name: string; email: string | null };
  /** Hosted mode (docs/HOSTED.md "API tokens in hosted mode"): the organization the token works in. */
  organization_id: string | null;
  organization: { id: string; name: string } | null;
}

/**
 * Creates an API token acting for `personId`; the token is answered once and only its hash is kept.
 * `organizationId` (hosted mode): the organization it works in, the creating session's
 * (`actor.organizationId`) or the one the command line names; else the organization whose work is running
 * (an agent made in it), else none.
 */
export async function createAccessToken(
  db: Queryable,
  input: { personId: string; name: string; scopes: TokenScope[]; expiresAt: Date | null; createdBy: string; organizationId?: string | null | undefined },
): Promise<{ id: string; token: string; expires_at: Date | null }> {
  const token = newAccessToken();
  const { rows } = await db.query<{ id: string; expires_at: Date | null }>(
    // Made inside an organization's work (an agent's token), it is that organization's (migration 0035).
    'INSERT INTO access_tokens (name, person_id, hash, scopes, expires_at, created_by, organization_id) VALUES ($1, $2, $3, $4, $5, $6, coalesce($7::uuid, current_organization())) RETURNING id, expires_at',
    [
      input.name.trim(),
      input.personId,
      sha256(token),
      JSON.stringify(input.scopes.map(({ object, action }) => ({ object, action }))),
      input.expiresAt,
      input.createdBy,
      input.organizationId ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('token insert returned no row');
  return { id: row.id, token, expires_at: row.expires_at };
}

export async function listTokens(db: Queryable, personId: string | undefined): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(
    `SELECT id, name, person_id, scopes, expires_at, last_used_at, created_by, created_at, person, organization_id, organization
       FROM access_tokens_summary WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR person_id = $1) ORDER BY created_at DESC`,
    [personId ?? null],
  );
  return rows.map((row) => ({ ...row, scopes: Array.isArray(row.scopes) ? row.scopes.filter(isTokenScope) : [] }));
}

/** Why a revoke was refused (403): the caller may neither revoke this token as its own nor write identities. */
export const REVOKE_FORBIDDEN_TOKEN =
  "an API token may revoke only itself; revoking another token needs write (update or delete) on identities, which this token's scopes or its owner's roles do not grant";
export const REVOKE_FORBIDDEN_PERSON = "revoking another person's token needs write (update or delete) on identities";

/**
 * Revokes a token (issue 35, docs/AUTH.md "Revoking tokens"): a token may revoke itself, a signed-in person
 * their own tokens, and anyone else's needs write on identities (`mayWriteIdentities`, decided with the
 * caller's token scopes, so an admin's Read token cannot). Answers 'revoked', 'not_found' (no live token of
 * that id among those the caller sees: its person's, or everyone's for `seesAll` as GET /api/auth/tokens
 * lists them) or 'forbidden' (one the caller sees but may not revoke).
 */
export async function revokeToken(
  db: Queryable,
  id: string,
  caller: { personId: string; tokenId: string | undefined; seesAll: boolean; mayWriteIdentities: boolean },
): Promise<'revoked' | 'not_found' | 'forbidden'> {
  const { rows } = await db.query<{ person_id: string }>('SELECT person_id FROM access_tokens WHERE id = $1 AND deleted_at IS NULL', [id]);
  const row = rows[0];
  if (!row || (row.person_id !== caller.personId && !caller.seesAll && !caller.mayWriteIdentities)) return 'not_found';
  const own = caller.tokenId === undefined ? row.person_id === caller.personId : caller.tokenId === id;
  if (!own && !caller.mayWriteIdentities) return 'forbidden';
  const result = await db.query('UPDATE access_tokens SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
  return (result.rowCount ?? 0) > 0 ? 'revoked' : 'not_found';
}

/**
 * Scopes from the command line: `read`, `write` or `admin` (the presets), or `object:action` pairs such
 * as `canaries:read` and `playbooks:playbook:run`. No scope means the Admin preset: the token can do what
 * its owner can.
 */
export function parseScopeArgs(args: readonly string[]): { scopes: TokenScope[]; problems: string[] } {
  if (args.length === 0) return { scopes: presetScopes('Admin'), problems: [] };
  const scopes: TokenScope[] = [];
  const problems: string[] = [];
  for (const arg of args.flatMap((item) => item.split(/[\s,]+/)).filter(Boolean)) {
    const lower = arg.toLowerCase();
    const preset = lower === 'read' ? 'Read' : lower === 'write' ? 'Write' : lower === 'admin' ? 'Admin' : undefined;
    if (preset) {
      scopes.push(...presetScopes(preset));
      continue;
    }
    const at = arg.indexOf(':');
    const object = TOKEN_OBJECTS.find((item) => item === arg.slice(0, at));
    const action = object ? tokenActionsOf(object).find((item) => item === arg.slice(at + 1)) : undefined;
    if (at < 0 || !object || !action) {
      problems.push(`--scope ${arg}: use read, write, admin, or object:action with object one of ${TOKEN_OBJECTS.join(', ')}`);
      continue;
    }
    scopes.push({ subject: '', object, action });
  }
  const unique = new Map(scopes.map((scope) => [`${scope.object}:${scope.action}`, scope]));
  return { scopes: [...unique.values()], problems };
}

export type { TokenAction, TokenObject };
