import { z } from 'zod';
import { ROLES } from '@common/rbac';

/** GET /api/auth/organizations (docs/HOSTED.md, item 6). */
export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  external_id: z.string().nullable(),
  backend_url: z.string().nullable(),
  direct: z.boolean(),
  members: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const memberSchema = z.object({
  person_id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES).nullable(),
  source: z.enum(['claim', 'console']),
  created_at: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const successSchema = z.object({ message: z.string() });

/** The server says the same (server/features/organizations-admin): here so the form marks fields before sending. */
function backendUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL (for example https://team-a.example.com)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not hold a user name or password';
  return undefined;
}

export const organizationFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(200, 'must be at most 200 characters'),
    external_id: z.string().trim().max(200, 'must be at most 200 characters'),
    backend_url: z
      .string()
      .trim()
      .superRefine((value, ctx) => {
        const problem = value ? backendUrlProblem(value) : undefined;
        if (problem) ctx.addIssue({ code: 'custom', message: `Backend URL ${problem}` });
      }),
    direct: z.boolean(),
  })
  .superRefine((value, ctx) => {
    if (value.direct && !value.backend_url) ctx.addIssue({ code: 'custom', path: ['backend_url'], message: 'A direct organization needs a backend URL' });
  });
export type OrganizationForm = z.infer<typeof organizationFormSchema>;

/** The form's values as the API takes them: empty text clears a field. */
export function organizationBody(form: OrganizationForm) {
  return { name: form.name, external_id: form.external_id || null, backend_url: form.backend_url || null, direct: form.direct };
}

export const inviteFormSchema = z.object({
  email: z.email({ message: 'Enter a valid email address' }),
  role: z.enum([...ROLES, 'none']),
});
export type InviteForm = z.infer<typeof inviteFormSchema>;
