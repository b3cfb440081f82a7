/**
 * TEMPORARY — delete this file when the sign-in branch lands its own `web/features/<auth>/session-source.ts`
 * (the shell picks the first source in path order, so theirs wins anyway once both exist).
 *
 * Until then the console has no session source, `useAccess()` answers no to everything and the Users and
 * Teams pages hide every change. This reads the real whoami answer (no fake user): a signed-in browser
 * gets its person, roles and permissions; anyone else gets no user.
 */
import { ACTIONS, RESOURCES, ROLES, type AccessMap } from '@common/rbac';
import { z } from 'zod';
import type { SessionSource, SessionUser } from '@web/app/session';
import { api, ApiError } from '@web/lib/api';

const whoamiSchema = z.object({
  user: z.object({ id: z.string(), name: z.string(), email: z.string().nullish(), avatar: z.string().nullish() }),
  roles: z.array(z.enum(ROLES)),
  permissions: z.partialRecord(z.enum(RESOURCES), z.array(z.enum(ACTIONS))),
});

function toUser(answer: z.infer<typeof whoamiSchema>): SessionUser {
  const permissions: AccessMap = answer.permissions;
  return {
    id: answer.user.id,
    name: answer.user.name,
    ...(answer.user.email ? { email: answer.user.email } : {}),
    ...(answer.user.avatar ? { avatar: answer.user.avatar } : {}),
    roles: answer.roles,
    permissions,
  };
}

export const sessionSource: SessionSource = {
  load: async () => {
    try {
      return toUser(await api.get('/api/auth/whoami', whoamiSchema.parse));
    } catch (error) {
      // Not signed in (401) or a second factor pending (403): no user. Other failures are real errors.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return undefined;
      throw error;
    }
  },
};
