import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ACTIONS, isAdmin, RESOURCES, ROLES, isTokenScope, type AccessMap } from '../../../common/rbac';
import { decide } from '../../platform/auth/decide';
import { forbidden } from '../../platform/auth/guard';
import { managerOf, managerRole } from '../../platform/auth/organization-manager';
import type { Actor } from '../../platform/auth/types';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { actorOfPerson, MEMBER_DEFAULT_ROLE } from './authenticate';
import { createIdentity, identityCount } from './identities';
import type { IdentityDeps } from './kratos/context';
import { startRecovery } from './kratos/recovery';
import { REGISTRATION_DISABLE } from './kratos/registration';
import { membershipsOf } from './organizations';
import { deletePerson, updatePerson } from './people';
import { createAccessToken, listTokens, REVOKE_FORBIDDEN_PERSON, REVOKE_FORBIDDEN_TOKEN, revokeToken } from './tokens';

/** What the console may show this person: every resource with the actions the server would allow. */
export function accessMap(actor: Actor): AccessMap {
  const map: AccessMap = {};
  for (const resource of RESOURCES) {
    const actions = ACTIONS.filter((action) => decide(actor, resource, action).allowed);
    if (actions.length > 0) map[resource] = actions;
  }
  return map;
}

const roleSchema = z.enum(ROLES);
const uuid = z.uuid({ message: 'must be a UUID' });

const tokenScopeSchema = z
  .object({ subject: z.string().optional(), object: z.string(), action: z.string() })
  .refine((value) => isTokenScope(value), { message: 'is not a token scope: object one of mcp, canaries, catalog, application, playbooks, notification, with one of its actions' });

/** 'never', a date (2027-01-31 or an ISO time) in the future, or a duration such as 30d or 12h. */
export function parseExpiry(value: string, now = new Date()): Date | null | undefined {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'never') return null;
  const duration = /^(\d{1,5})([hdwmy])$/.exec(text);
  if (duration) {
    const n = Number(duration[1]);
    const unit = duration[2];
    const hours = unit === 'h' ? 1 : unit === 'd' ? 24 : unit === 'w' ? 168 : unit === 'm' ? 720 : 8760;
    return n > 0 ? new Date(now.getTime() + n * hours * 3_600_000) : undefined;
  }
  const date = new Date(text);
  return Number.isNaN(date.getTime()) || date.getTime() <= now.getTime() ? undefined : date;
}

const createTokenBody = z.object({
  name: z
    .string({ message: 'Name is required' })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, 'Name is required').max(200, 'must be at most 200 characters')),
  expiry: z
    .string()
    .optional()
    .refine((value) => value === undefined || parseExpiry(value) !== undefined, { message: "must be 'never', a future date, or a duration such as 30d" }),
  scope: z.array(tokenScopeSchema).max(100).default([]),
});

const inviteBody = z.object({
  firstName: z.string().trim().max(200).default(''),
  lastName: z.string().trim().max(200).default(''),
  email: z.email({ message: 'is not a valid email address' }).max(320),
  role: roleSchema,
});

const updatePersonBody = z.object({
  id: uuid,
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  roles: z.array(roleSchema).min(1, 'choose at least one role').max(ROLES.length).optional(),
  state: z.enum(['active', 'inactive']).optional(),
});

const checkBody = z.object({
  person_id: uuid.optional(),
  object: z.enum(RESOURCES),
  action: z.enum(ACTIONS),
  target: z
    .object({
      kind: z.enum(['config', 'component', 'canary', 'playbook', 'connection']),
      id: uuid,
      tags: z.record(z.string(), z.string()).optional(),
      agent: z.string().optional(),
      // What permissions with object selectors (kind Permission) match on.
      name: z.string().optional(),
      namespace: z.string().optional(),
      type: z.string().optional(),
      labels: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

function presentToken(row: Awaited<ReturnType<typeof listTokens>>[number]) {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    person: row.person,
    // Hosted mode (docs/HOSTED.md "API tokens in hosted mode"): the organization the token works in.
    organization: row.organization,
  };
}

/** Who changes a member's role inside an organization (docs/HOSTED.md "Platform administrators and organization admins"). */
const MEMBER_ROLE_REFUSAL =
  "changing a member's role in this organization needs its admin or a platform administrator: roles are per organization, and the role here is the membership's";

/**
 * Hosted mode: an account (its name, state, existence) is every organization's its person belongs to, so an
 * organization's admin does not change it; they remove the member from their organization instead.
 */
const accountRefusal = (what: string) =>
  `${what} changes it in every organization the person belongs to, which is a platform administrator's: remove the member from this organization instead (Settings → Organizations → Members)`;

/** In an organization (hosted mode), account-wide changes need a platform administrator (their token as its scopes allow). */
function assertAccountChange(actor: Actor, action: 'update' | 'delete', what: string): void {
  if (actor.organizationId && managerRole(actor, action)?.platform !== true) throw new AppError('forbidden', accountRefusal(what));
}

function actorOf(req: { actor?: Actor }): Actor {
  if (!req.actor) throw new AppError('unauthorized', 'sign in first');
  return req.actor;
}

/** /api/auth, /api/people and /api/rbac (spec §7 Auth, Agents people and teams; identity issue). */
export async function identityApi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  const { pool } = deps;

  route(app, {
    method: 'GET',
    url: '/api/auth/whoami',
    summary: 'The signed-in person, their roles and what they may do',
    tags: ['auth'],
    access: 'self-checked',
    handler: async ({ req, reply }) => {
      const resolution = await deps.auth.resolve(req);
      if (resolution.pending) {
        return reply.status(403).send({
          error: 'forbidden',
          message: 'complete the second sign-in step first',
          details: { id: 'session_aal2_required', redirect_browser_to: `/login?aal=aal2` },
        });
      }
      const actor = resolution.actor;
      if (!actor) throw new AppError('unauthorized', 'sign in first');
      const [{ rows }, organizations] = await Promise.all([
        pool.query<{ avatar: string | null }>('SELECT avatar FROM people WHERE id = $1', [actor.id]),
        // Hosted mode (docs/HOSTED.md): the session's organization and the person's others, for the switcher.
        deps.config.oidc ? membershipsOf(pool, actor.id) : undefined,
      ]);
      return {
        user: { id: actor.id, name: actor.name, email: actor.email, avatar: rows[0]?.avatar ?? null },
        roles: actor.roles,
        permissions: accessMap(actor),
        teams: actor.teamIds,
        ...(actor.session ? { session: { id: actor.session.id, aal: actor.session.aal, authenticated_at: actor.session.authenticatedAt.toISOString() } } : {}),
        ...(actor.token ? { token: { id: actor.token.id, scopes: actor.token.scopes } } : {}),
        // Hosted mode (migration 0040): manages every organization; not a role inside any of them.
        platform_admin: actor.platformAdmin === true,
        ...(organizations
          ? {
              organization: organizations.find((organization) => organization.id === actor.organizationId) ?? null,
              organizations,
              // The role that counts where the request works: the membership's (viewer when it names none); null in none.
              organization_role: actor.organization ? (actor.organization.role ?? MEMBER_DEFAULT_ROLE) : null,
            }
          : {}),
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/setup',
    summary: 'What the sign-in pages need to know: first run, registration, outgoing mail',
    tags: ['auth'],
    access: 'public',
    handler: async () => {
      const count = await identityCount(pool);
      const { rows } = await pool.query<{ value: string }>('SELECT value FROM properties WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization()', [REGISTRATION_DISABLE]);
      const disabled = rows[0]?.value.trim().toLowerCase() === 'true';
      return { first_run: count === 0, registration: count === 0 || !disabled, mail: deps.mailer.delivers };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/auth/create_token',
    summary: 'Creates an API token for the signed-in person; the answer holds it once (payload.token)',
    tags: ['auth'],
    access: 'authenticated',
    body: createTokenBody,
    handler: async ({ req, body }) => {
      const actor = actorOf(req);
      // A token may not mint tokens: its scopes would no longer limit what the new one can do.
      if (!actor.session) throw new AppError('forbidden', 'API tokens can only be created from a signed-in session, not with another token');
      const expiresAt = body.expiry === undefined ? null : (parseExpiry(body.expiry) ?? null);
      const scopes = body.scope.filter(isTokenScope);
      if (scopes.length === 0) throw new AppError('invalid_request', 'scope: choose at least one scope', [{ path: 'body.scope', message: 'choose at least one scope' }]);
      // Hosted mode: the token works in the session's organization (docs/HOSTED.md "API tokens in hosted mode").
      const created = await createAccessToken(pool, { personId: actor.id, name: body.name, scopes, expiresAt, createdBy: actor.id, organizationId: actor.organizationId ?? null });
      req.log.info({ token: created.id, name: body.name }, 'API token created');
      return {
        message: 'success',
        payload: { id: created.id, name: body.name, token: created.token, expires_at: created.expires_at?.toISOString() ?? null, scopes },
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/tokens',
    summary: "API tokens: your own, or everyone's for an admin",
    tags: ['auth'],
    access: 'authenticated',
    handler: async ({ req }) => {
      const actor = actorOf(req);
      return (await listTokens(pool, isAdmin(actor.roles) ? undefined : actor.id)).map(presentToken);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/auth/token/:id',
    summary: "Revokes an API token: a token may revoke itself, a signed-in person their own tokens; anyone else's needs write (update or delete) on identities",
    tags: ['auth'],
    access: 'authenticated',
    params: z.object({ id: uuid }),
    handler: async ({ req, params, reply }) => {
      const actor = actorOf(req);
      const mayWriteIdentities = decide(actor, 'identities', 'delete').allowed || decide(actor, 'identities', 'update').allowed;
      const outcome = await revokeToken(pool, params.id, { personId: actor.id, tokenId: actor.session ? undefined : actor.token?.id, seesAll: isAdmin(actor.roles), mayWriteIdentities });
      if (outcome === 'not_found') throw new AppError('not_found', `token ${params.id} not found`);
      if (outcome === 'forbidden') throw new AppError('forbidden', actor.token && !actor.session ? REVOKE_FORBIDDEN_TOKEN : REVOKE_FORBIDDEN_PERSON);
      req.log.info({ token: params.id }, 'API token revoked');
      return reply.status(200).send({ message: 'success' });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/auth/invite_user',
    summary: 'Invites a person: creates their account with a role and mails them a code to choose a password',
    tags: ['auth'],
    access: { resource: 'identities', action: 'create' },
    // Hosted mode signs people in through the provider: the built-in invitation (a code to choose a password)
    // could never be used, and it would make no member of the organization.
    before: async () => {
      if (deps.config.oidc) {
        throw new AppError(
          'forbidden',
          'this console signs people in through its provider: invite a person into an organization with POST /api/auth/organizations/{id}/members (Settings → Organizations → Members)',
        );
      }
    },
    body: inviteBody,
    handler: async ({ req, reply, body }) => {
      const created = await createIdentity(pool, { traits: { email: body.email, name: { first: body.firstName, last: body.lastName } }, roles: [body.role] });
      const { flow, code } = await startRecovery({ deps, req, reply, auth: { credential: undefined, actor: undefined, pending: undefined }, csrf: '' }, body.email);
      const link = `${req.protocol}://${req.host}/recovery?flow=${flow.id}`;
      return reply.status(201).send({
        id: created.id,
        email: body.email,
        role: body.role,
        recovery_link: link,
        mail_sent: deps.mailer.delivers,
        // Without a mail server the inviting admin passes the code on; with one it only travels by mail.
        ...(deps.mailer.delivers ? {} : { recovery_code: code }),
      });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/people/update',
    summary:
      "Changes a person's name, roles or state (active, inactive); working in an organization (hosted mode), roles is the person's one role in that organization, which only its admins and platform administrators change",
    tags: ['people'],
    // Checked in the handler: in an organization a role change needs its admin (or a platform administrator), not identities: update.
    access: 'authenticated',
    // Anyone who may change nothing here gets the 403 before a 400 about the body.
    before: async (req) => {
      const actor = actorOf(req);
      if (!decide(actor, 'identities', 'update').allowed && !(actor.organizationId && managerRole(actor, 'update'))) throw forbidden('identities', 'update');
    },
    body: updatePersonBody,
    handler: async ({ req, body }) => {
      const actor = actorOf(req);
      const organizationId = body.roles !== undefined ? (actor.organizationId ?? undefined) : undefined;
      // Hosted mode (docs/HOSTED.md "Roles per organization"): the role that counts here is the membership's.
      if (organizationId !== undefined) managerOf(actor, 'update', MEMBER_ROLE_REFUSAL);
      if (organizationId === undefined || body.name !== undefined || body.state !== undefined) {
        if (body.name !== undefined || body.state !== undefined) assertAccountChange(actor, 'update', "changing an account's name or state");
        // A platform administrator working in an organization changes accounts whatever their role there.
        const platform = actor.organizationId && managerRole(actor, 'update')?.platform === true;
        if (!platform && !decide(actor, 'identities', 'update').allowed) throw forbidden('identities', 'update');
      }
      if (organizationId !== undefined && body.roles?.length !== 1) {
        throw new ValidationError([{ path: 'body.roles', message: 'choose one role: a member holds one role in an organization' }]);
      }
      await updatePerson(pool, { ...body, organizationId });
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/people/:id',
    summary: "Deletes a person's account (their history keeps their name); in an organization (hosted mode) a platform administrator's only",
    tags: ['people'],
    // identities: delete, or a platform administrator working in an organization (whatever their role there).
    access: 'authenticated',
    before: async (req) => {
      const actor = actorOf(req);
      if (!decide(actor, 'identities', 'delete').allowed && !(actor.organizationId && managerRole(actor, 'delete')?.platform)) throw forbidden('identities', 'delete');
    },
    params: z.object({ id: uuid }),
    handler: async ({ req, params }) => {
      assertAccountChange(actorOf(req), 'delete', 'deleting an account');
      if (actorOf(req).id === params.id) throw new AppError('conflict', 'you cannot delete your own account');
      await deletePerson(pool, params.id);
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/rbac/check',
    summary: 'Explains an access decision: allowed or not, and the rule that decided it',
    tags: ['rbac'],
    access: 'authenticated',
    body: checkBody,
    handler: async ({ req, body }) => {
      const actor = actorOf(req);
      let subject = actor;
      if (body.person_id && body.person_id !== actor.id) {
        // Explaining someone else's access reveals their permissions: that is reading rbac.
        if (!decide(actor, 'rbac', 'read').allowed) throw new AppError('forbidden', 'you may not read rbac: explaining another person needs it');
        const found = await actorOfPerson(pool, deps.auth.rules, body.person_id);
        if (!found) throw new AppError('not_found', `person ${body.person_id} not found or not active`);
        subject = found;
      }
      const decision = decide(subject, body.object, body.action, body.target);
      const reason = decision.reason;
      const permission = reason.kind === 'deny' || reason.kind === 'permission' ? subject.permissions.find((rule) => rule.id === reason.permission) : undefined;
      return {
        allowed: decision.allowed,
        reason: reason.kind,
        explanation: explain(decision.allowed, reason, body.object, body.action),
        ...(reason.kind === 'role' ? { role: reason.role } : {}),
        ...(permission ? { permission } : {}),
        subject: { id: subject.id, name: subject.name, roles: subject.roles },
      };
    },
  });
}

function explain(allowed: boolean, reason: ReturnType<typeof decide>['reason'], object: string, action: string): string {
  switch (reason.kind) {
    case 'deny':
      return `denied: permission ${reason.permission} denies ${action} on ${object}`;
    case 'permission':
      return `allowed: permission ${reason.permission} allows ${action} on ${object}`;
    case 'role':
      return `allowed: the role ${reason.role} may ${action === 'read' ? 'read' : 'write'} ${object}`;
    case 'token':
      return `denied: the API token's scopes do not include ${action} on ${object}`;
    case 'none':
      return allowed ? 'allowed' : `denied: no role or permission allows ${action} on ${object}`;
  }
}
