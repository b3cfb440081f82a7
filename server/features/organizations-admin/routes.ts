import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { ROLES } from '../../../common/rbac';
import { managerOf, managerRole, manages, type Manager } from '../../platform/auth/organization-manager';
import type { Actor } from '../../platform/auth/types';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { baseUrl } from '../identity';
import type { InviteMail, InviteMailResult } from './invite-mail';
import {
  backendUrlProblem,
  createOrganization,
  deleteOrganization,
  getOrganization,
  inviteMember,
  listMembers,
  listOrganizations,
  removeMember,
  setMemberRole,
  updateOrganization,
  type MemberRow,
  type OrganizationRow,
} from './service';

const uuid = z.uuid({ message: 'must be a UUID' });
const idParams = z.object({ id: uuid });
const memberParams = z.object({ id: uuid, person: uuid });

const name = z
  .string({ message: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(200, 'must be at most 200 characters');
const externalId = z.string().trim().max(200, 'must be at most 200 characters').nullable();
const backendUrl = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .superRefine((value, ctx) => {
    const problem = value ? backendUrlProblem(value) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .nullable();
const direct = z.boolean({ message: 'must be true or false' });

const createBody = z.object({ name, external_id: externalId.optional(), backend_url: backendUrl.optional(), direct: direct.optional() });
const updateBody = z.object({ name: name.optional(), external_id: externalId.optional(), backend_url: backendUrl.optional(), direct: direct.optional() });
const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });
const inviteBody = z.object({
  email: z.email({ message: 'is not a valid email address' }).max(320),
  role: role.nullable().optional(),
  firstName: z.string().trim().max(200).optional(),
  lastName: z.string().trim().max(200).optional(),
});
const roleBody = z.object({ role: role.nullable() });

/** Presenters: what an administrator sees of a row (dates as ISO text). */
export function presentOrganization(row: OrganizationRow) {
  return {
    id: row.id,
    name: row.name,
    external_id: row.external_id,
    backend_url: row.backend_url,
    direct: row.direct,
    members: row.members,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentMember(row: MemberRow) {
  return { person_id: row.person_id, name: row.name, email: row.email, role: row.role, source: row.source, created_at: row.created_at.toISOString() };
}

function actorOf(actor: Actor | undefined): Actor {
  if (!actor) throw new AppError('unauthorized', 'sign in first');
  return actor;
}

/**
 * An organization by id as this manager may name it: any for a platform administrator; for an
 * organization's admin only their own: another organization's id answers 404, as an id that does not exist
 * (hosted mode never says what another organization has).
 */
function assertMay(manager: Manager, id: string): void {
  if (!manages(manager, id)) throw new AppError('not_found', `organization ${id} not found`);
}

/** What only a platform administrator changes: an organization as a whole (name, backend, existence). */
function assertPlatform(manager: Manager, id: string | undefined, what: string): void {
  if (manager.platform) return;
  if (id !== undefined) assertMay(manager, id);
  throw new AppError('forbidden', `${what} is a platform administrator's: an organization's admin manages its members and invitations`);
}

/**
 * /api/auth/organizations: Settings → Organizations (docs/HOSTED.md, item 6). Under /api/auth because
 * they are the hosted front's own rows, never forwarded to an organization's backend. A platform
 * administrator manages all of them; an organization's admin reads its own and manages its members.
 */
export function organizationsAdminRoutes(app: FastifyInstance, pool: pg.Pool, sendInvite: (mail: InviteMail) => Promise<InviteMailResult>): void {
  const tags = ['organizations'];

  route(app, {
    method: 'GET',
    url: '/api/auth/organizations',
    summary: 'Organizations of hosted mode with their member counts',
    tags,
    access: 'authenticated',
    handler: async ({ req }) => {
      const manager = managerOf(req.actor, 'read');
      if (!manager.platform) return [presentOrganization(await getOrganization(pool, manager.organizationId))];
      return (await listOrganizations(pool)).map(presentOrganization);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/organizations/access',
    summary: 'What the caller may manage here: every organization (a platform administrator), its own organization’s members (an organization admin), or nothing',
    tags,
    access: 'authenticated',
    handler: async ({ req }) => {
      const manager = managerRole(actorOf(req.actor), 'read');
      return {
        platform_admin: manager?.platform === true,
        organization_id: manager && !manager.platform ? manager.organizationId : null,
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/auth/organizations',
    summary: 'Creates an organization (name, optional external id, backend URL and direct flag)',
    tags,
    access: 'authenticated',
    body: createBody,
    handler: async ({ req, body, reply }) => {
      assertPlatform(managerOf(req.actor, 'create'), undefined, 'creating an organization');
      const created = await createOrganization(pool, body);
      req.log.info({ organization: created.id }, 'organization created');
      return reply.status(201).send(presentOrganization(created));
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/organizations/:id',
    summary: 'One organization',
    tags,
    access: 'authenticated',
    params: idParams,
    handler: async ({ req, params }) => {
      assertMay(managerOf(req.actor, 'read'), params.id);
      return presentOrganization(await getOrganization(pool, params.id));
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/api/auth/organizations/:id',
    summary: "Changes an organization's name, external id, backend URL or direct flag",
    tags,
    access: 'authenticated',
    params: idParams,
    body: updateBody,
    handler: async ({ req, params, body }) => {
      assertPlatform(managerOf(req.actor, 'update'), params.id, "changing an organization's name, external id or backend");
      return presentOrganization(await updateOrganization(pool, params.id, body));
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/auth/organizations/:id',
    summary: 'Deletes an organization (soft: its members go, sessions in it choose again)',
    tags,
    access: 'authenticated',
    params: idParams,
    handler: async ({ req, params }) => {
      assertPlatform(managerOf(req.actor, 'delete'), params.id, 'deleting an organization');
      const deleted = await deleteOrganization(pool, params.id);
      req.log.info({ organization: deleted.id }, 'organization deleted');
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/organizations/:id/members',
    summary: "An organization's members, with their role there and where the membership comes from",
    tags,
    access: 'authenticated',
    params: idParams,
    handler: async ({ req, params }) => {
      assertMay(managerOf(req.actor, 'read'), params.id);
      return (await listMembers(pool, params.id)).map(presentMember);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/auth/organizations/:id/members',
    summary: 'Invites a person by email into an organization (their account is made when there is none; a mail when mail is configured)',
    tags,
    access: 'authenticated',
    params: idParams,
    body: inviteBody,
    handler: async ({ req, params, body, reply }) => {
      assertMay(managerOf(req.actor, 'create'), params.id);
      const { member, created, organization } = await inviteMember(pool, params.id, { email: body.email, role: body.role, first: body.firstName, last: body.lastName });
      // The membership stands whatever the mail does; the answer says whether it left.
      const mail = await sendInvite({ to: member.email ?? body.email, organization: organization.name, consoleUrl: baseUrl(req), invitedBy: req.actor?.name });
      return reply.status(201).send({ ...presentMember(member), account_created: created, ...mail });
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/api/auth/organizations/:id/members/:person',
    summary: "Changes a member's role inside the organization (null: viewer)",
    tags,
    access: 'authenticated',
    params: memberParams,
    body: roleBody,
    handler: async ({ req, params, body }) => {
      assertMay(managerOf(req.actor, 'update'), params.id);
      return presentMember(await setMemberRole(pool, params.id, params.person, body.role));
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/auth/organizations/:id/members/:person',
    summary: 'Removes a member added in the console (claim members are the provider’s to remove)',
    tags,
    access: 'authenticated',
    params: memberParams,
    handler: async ({ req, params }) => {
      assertMay(managerOf(req.actor, 'delete'), params.id);
      await removeMember(pool, params.id, params.person);
      return { message: 'success' };
    },
  });
}
