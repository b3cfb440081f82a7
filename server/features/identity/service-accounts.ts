import { presetScopes } from '../../../common/rbac';
import { registerServiceAccountIssuer } from '../../platform/secrets/service-accounts';
import { findByAddress } from './identities';
import { createAccessToken } from './tokens';

const LIFETIME_MS = 60 * 60_000;

/**
 * The tokens `valueFrom.serviceAccount: <email>` reads (server/platform/secrets/service-accounts.ts): a
 * read-only API token of that person, for an hour, listed with their tokens as "service account".
 */
registerServiceAccountIssuer(async (pool, account) => {
  const found = await findByAddress(pool, account.trim());
  if (!found) return undefined;
  const expiresAt = new Date(Date.now() + LIFETIME_MS);
  const created = await createAccessToken(pool, { personId: found.id, name: 'service account (valueFrom.serviceAccount)', scopes: presetScopes('Read'), expiresAt, createdBy: found.id });
  return { token: created.token, expiresAt };
});
