import type { FastifyRequest } from 'fastify';
import type { IdentityWithAddresses } from '../identities';
import type { SessionRow } from '../sessions';
import { baseUrl, ORY_PREFIX } from './context';

/** An identity as Kratos presents it: traits and addresses, never credentials. */
export function presentIdentity(req: FastifyRequest, identity: IdentityWithAddresses): Record<string, unknown> {
  return {
    id: identity.id,
    schema_id: identity.schema_id,
    schema_url: `${baseUrl(req)}${ORY_PREFIX}/schemas/${Buffer.from(identity.schema_id).toString('base64url')}`,
    state: identity.state,
    state_changed_at: identity.state_changed_at.toISOString(),
    traits: identity.traits,
    verifiable_addresses: identity.addresses.map((address) => ({
      id: address.id,
      value: address.value,
      verified: address.verified,
      via: address.via,
      status: address.status,
      ...(address.verified_at ? { verified_at: address.verified_at.toISOString() } : {}),
      created_at: address.created_at.toISOString(),
      updated_at: address.updated_at.toISOString(),
    })),
    recovery_addresses: identity.addresses.map((address) => ({
      id: address.id,
      value: address.value,
      via: address.via,
      created_at: address.created_at.toISOString(),
      updated_at: address.updated_at.toISOString(),
    })),
    metadata_public: identity.metadata_public ?? null,
    created_at: identity.created_at.toISOString(),
    updated_at: identity.updated_at.toISOString(),
    organization_id: null,
  };
}

export function presentSession(req: FastifyRequest, session: SessionRow, identity: IdentityWithAddresses): Record<string, unknown> {
  return {
    id: session.id,
    active: session.active && session.expires_at.getTime() > Date.now(),
    expires_at: session.expires_at.toISOString(),
    authenticated_at: session.authenticated_at.toISOString(),
    authenticator_assurance_level: session.aal,
    authentication_methods: session.authentication_methods,
    issued_at: session.issued_at.toISOString(),
    identity: presentIdentity(req, identity),
    devices: [{ id: session.id, ip_address: session.ip_address ?? '', user_agent: session.user_agent ?? '', location: '' }],
  };
}

/** The identity schema (GET /schemas/{id}): what the registration and profile forms ask for. */
export const IDENTITY_SCHEMA = {
  $id: 'https://watchkeeper.dev/schemas/identity.default.json',
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Person',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          title: 'Email',
          minLength: 3,
          'ory.sh/kratos': { credentials: { password: { identifier: true } }, verification: { via: 'email' }, recovery: { via: 'email' } },
        },
        name: {
          type: 'object',
          properties: { first: { type: 'string', title: 'First name' }, last: { type: 'string', title: 'Last name' } },
        },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
} as const;
