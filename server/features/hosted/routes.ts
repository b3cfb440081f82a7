import type { FastifyInstance } from 'fastify';
import { route } from '../../platform/http/route';
import type { OrganizationTokens } from './organization';
import { probeBackend } from './probe';

/** GET /api/auth/jwks, /api/auth/organization-token and /api/auth/organization-backend (the front, `--auth oidc`). */
export function frontRoutes(app: FastifyInstance, tokens: OrganizationTokens): void {
  route(app, {
    method: 'GET',
    url: '/api/auth/jwks',
    summary: "The public keys organization backends check the front's tokens with",
    tags: ['auth'],
    access: 'public',
    handler: async ({ reply }) => {
      void reply.header('cache-control', 'public, max-age=300');
      return tokens.keys.jwks();
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/organization-token',
    summary: "A 5-minute token for the backend of the session's organization (aud: the organization id)",
    tags: ['auth'],
    access: 'authenticated',
    handler: async ({ req, reply }) => {
      const { organization, token, expiresAt } = await tokens.forActor(req.actor);
      void reply.header('cache-control', 'no-store');
      return {
        token,
        token_type: 'Bearer',
        expires_at: expiresAt.toISOString(),
        organization: { id: organization.id, name: organization.name, backend_url: organization.backendUrl, direct: organization.direct },
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/auth/organization-backend',
    summary: "Whether the session's organization's backend answers (spec §1: the provisioning screen until it does)",
    tags: ['auth'],
    access: 'authenticated',
    handler: async ({ req, reply }) => {
      const { organization, token } = await tokens.forActor(req.actor);
      void reply.header('cache-control', 'no-store');
      const state = await probeBackend(organization.backendUrl, token);
      return { organization: { id: organization.id, name: organization.name, backend_url: organization.backendUrl, direct: organization.direct }, ...state };
    },
  });
}
