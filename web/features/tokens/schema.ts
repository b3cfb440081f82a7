import { isTokenScope, type TokenScope } from '@common/rbac';
import { z } from 'zod';

/** Scopes as the server stores them; anything that is not a token scope is dropped, not trusted. */
const scopesSchema = z.array(z.unknown()).transform((items): TokenScope[] => items.filter(isTokenScope));

/** One row of GET /api/auth/tokens. */
export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: scopesSchema,
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  person: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }).nullable(),
  /** Hosted mode (docs/HOSTED.md "API tokens in hosted mode"): the organization the token works in. */
  organization: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
});
export type Token = z.infer<typeof tokenSchema>;

/** POST /api/auth/create_token: the token itself is in the answer once, and never again. */
export const createdTokenSchema = z.object({
  message: z.string().optional(),
  payload: z.object({ id: z.string(), name: z.string(), token: z.string().min(1), expires_at: z.string().nullable(), scopes: scopesSchema }),
});
export type CreatedToken = z.infer<typeof createdTokenSchema>['payload'];
