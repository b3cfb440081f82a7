import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { api } from '@web/lib/api';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { jsonSchemaSchema } from './model/json-schema';

export const canaryKeys = {
  about: ['canary', 'about'] as const,
  schema: ['canary', 'schema'] as const,
  validate: (body: string) => ['canary', 'validate', body] as const,
};

const checkTypeSchema = z.object({ type: z.string(), label: z.string(), icon: z.string(), push: z.boolean().default(false) });
export type CheckTypeInfo = z.infer<typeof checkTypeSchema>;
const aboutSchema = z.object({ check_types: z.array(checkTypeSchema) });

/** The check types this server runs (GET /api/canary/about): the only ones the type picker offers. */
export function useCheckTypes() {
  return useQuery({
    queryKey: canaryKeys.about,
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: ({ signal }) => api.get('/api/canary/about', (data) => aboutSchema.parse(data).check_types, { signal }),
  });
}

/** The JSON schema of a spec (GET /api/canary/schema), for the Code tab's checks. */
export function useCanarySchema(enabled: boolean) {
  return useQuery({
    queryKey: canaryKeys.schema,
    enabled,
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: ({ signal }) => api.get('/api/canary/schema', (data) => jsonSchemaSchema.parse(data), { signal }),
  });
}

const validationSchema = z.object({
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  warnings: z.array(z.string()),
  checks: z.array(z.object({ type: z.string(), name: z.string(), endpoint: z.string().nullable().optional() })),
  schedule: z.string().nullable(),
});
export type CanaryValidation = z.infer<typeof validationSchema>;

/** Live feedback waits this long after the last change, so typing does not send a request per key. */
export const VALIDATE_DEBOUNCE_MS = 500;

/**
 * What the server thinks of a spec, without saving it (POST /api/canary/canaries/validate), for the
 * spec being edited; `current` is false while the answer is for an older version of it.
 */
export function useCanaryValidation(input: { namespace: string; spec: Record<string, unknown> } | null) {
  const body = input ? JSON.stringify({ namespace: input.namespace, spec: input.spec }) : '';
  const debounced = useDebouncedValue(body, VALIDATE_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: canaryKeys.validate(debounced),
    enabled: debounced !== '',
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const request: unknown = JSON.parse(debounced);
      return api.post('/api/canary/canaries/validate', request, (data) => validationSchema.parse(data), { signal });
    },
  });
  const current = body !== '' && debounced === body && !query.isPlaceholderData && query.data !== undefined;
  return { data: query.data, current, error: query.error };
}
