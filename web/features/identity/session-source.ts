import { ACTIONS, RESOURCES, type AccessMap } from '@common/rbac';
import { z } from 'zod';
import { api, ApiError } from '@web/lib/api';
import type { SessionSource, SessionUser } from '@web/app/session';

/*
 * STAND-IN (perm-tokens branch): the sign-in branch owns this file and replaces it with the real session
 * source (redirects, sign out). It exists here only so the Permissions and Tokens pages see who is
 * signed in (useAccess) before that branch lands; on merge, keep the sign-in branch's version.
 */

const accessSchema = z.partialRecord(z.enum(RESOURCES), z.array(z.enum(ACTIONS)));

const whoamiSchema = z.object({
  user: z.object({ id: z.string(), name: z.string(), email: z.string().nullable(), avatar: z.string().nullable() }),
  roles: z.array(z.string()),
  permissions: accessSchema,
});

function toUser(data: z.infer<typeof whoamiSchema>): SessionUser {
  const permissions: AccessMap = data.permissions;
  return {
    id: data.user.id,
    name: data.user.name,
    ...(data.user.email ? { email: data.user.email } : {}),
    ...(data.user.avatar ? { avatar: data.user.avatar } : {}),
    roles: data.roles,
    permissions,
  };
}

export const sessionSource: SessionSource = {
  load: async () => {
    try {
      return toUser(await api.get('/api/auth/whoami', (data) => whoamiSchema.parse(data)));
    } catch (error) {
      // Nobody signed in (or a second factor pending): no user, and the pages show what anonymous sees.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return undefined;
      throw error;
    }
  },
};
