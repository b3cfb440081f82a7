import { z } from 'zod';

import { REQUIRED } from '@web/lib/validation';

export { REQUIRED };

/** A `properties` row as /api/db answers it. */
export const propertySchema = z.object({
  name: z.string(),
  value: z.string().nullable(),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
});
export type Property = z.infer<typeof propertySchema>;

/** The add/edit form (spec §5: required fields say 'This field is required'). */
export const propertyFormSchema = z.object({
  name: z.string().trim().min(1, REQUIRED),
  value: z.string().trim().min(1, REQUIRED),
});
export type PropertyForm = z.infer<typeof propertyFormSchema>;
