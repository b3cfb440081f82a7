import { ROLES } from '@common/rbac';
import { z } from 'zod';
import { REQUIRED } from '@web/lib/validation';

export const PERSON_STATES = ['active', 'inactive'] as const;
export type PersonState = (typeof PERSON_STATES)[number];

/** The columns of people_roles the Users page reads (server/postgrest/relations/identity.ts). */
export const PERSON_COLUMNS = 'id,name,email,avatar,last_login,created_at,state,roles,teams';

/** A people_roles row: a person who can sign in, with roles and teams. */
export const personRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  last_login: z.string().nullable(),
  created_at: z.string(),
  state: z.enum(PERSON_STATES),
  roles: z.array(z.enum(ROLES)),
  teams: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PersonRow = z.infer<typeof personRowSchema>;

export const INVALID_EMAIL = 'Please enter a valid email address';

/** Spec §6: invited users carry firstName, lastName, email and role. */
export const inviteFormSchema = z.object({
  firstName: z.string().trim().min(1, REQUIRED).max(200, 'Must be at most 200 characters'),
  lastName: z.string().trim().min(1, REQUIRED).max(200, 'Must be at most 200 characters'),
  email: z.string().trim().min(1, REQUIRED).pipe(z.email(INVALID_EMAIL)),
  role: z.enum(ROLES),
});
export type InviteForm = z.infer<typeof inviteFormSchema>;
/** Spec §6: the least a new account can do; the admin picks more when needed. */
export const DEFAULT_INVITE_ROLE = 'viewer';

/** POST /api/auth/invite_user: the code only comes back when no mail server could send it. */
export const inviteResultSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  recovery_link: z.string(),
  mail_sent: z.boolean(),
  recovery_code: z.string().optional(),
});
export type InviteResult = z.infer<typeof inviteResultSchema>;

export const AT_LEAST_ONE_ROLE = 'Choose at least one role';
export const rolesFormSchema = z.object({ roles: z.array(z.enum(ROLES)).min(1, AT_LEAST_ONE_ROLE) });
export type RolesForm = z.infer<typeof rolesFormSchema>;

/** Our endpoints answer `{ message: 'success' }` on a change. */
export const successSchema = z.object({ message: z.string() });
