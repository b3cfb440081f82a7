import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../platform/http/errors';
import { route } from '../../../platform/http/route';
import type { IdentityDeps } from '../kratos/context';
import { chooseOrganization } from './store';

const chooseBody = z.object({ id: z.uuid({ message: 'must be the id (a UUID) of one of your organizations' }) });

/** POST /api/auth/organization (docs/HOSTED.md): the switcher's choice, kept on the session. */
export function organizationRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  route(app, {
    method: 'POST',
    url: '/api/auth/organization',
    summary: 'Chooses the organization this session works in (hosted mode); the person must be a member',
    tags: ['auth'],
    access: 'authenticated',
    body: chooseBody,
    handler: async ({ req, body }) => {
      const actor = req.actor;
      if (!actor) throw new AppError('unauthorized', 'sign in first');
      if (!actor.session) throw new AppError('forbidden', 'an organization is chosen for a signed-in session, not for an API token');
      const choice = await chooseOrganization(deps.pool, { sessionId: actor.session.id, personId: actor.id, organizationId: body.id });
      if ('refused' in choice) {
        if (choice.refused === 'unknown') throw new AppError('not_found', `id: organization ${body.id} not found`);
        throw new AppError('forbidden', `id: you are not a member of organization ${body.id}`);
      }
      req.log.info({ organization: choice.chosen.id }, 'organization chosen');
      return { organization: choice.chosen };
    },
  });
}
