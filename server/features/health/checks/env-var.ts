import { z } from 'zod';

const VALUE_FROM = 'valueFrom (Kubernetes secrets, config maps, helm values) is not supported here; write the value itself as {value: …}';

/**
 * A canary-checker EnvVar read as its text: a plain string or `{value}`. `{valueFrom}` needs a Kubernetes
 * cluster this console does not have, so it is refused by name instead of being read as empty.
 */
export const envVarSchema = z
  .union([z.string(), z.object({ value: z.string().optional(), valueFrom: z.unknown().optional() }).loose()])
  .transform((raw, ctx) => {
    if (typeof raw === 'string') return raw;
    if (raw.valueFrom !== undefined) {
      ctx.addIssue({ code: 'custom', message: VALUE_FROM });
      return z.NEVER;
    }
    return raw.value ?? '';
  });

/** A named EnvVar as in canary-checker's `headers` and `env` lists: `{name, value}`. */
export const namedEnvVarSchema = z
  .object({ name: z.string({ message: 'is required' }).min(1, 'is required'), value: z.string().optional(), valueFrom: z.unknown().optional() })
  .loose()
  .transform((raw, ctx) => {
    if (raw.valueFrom !== undefined) {
      ctx.addIssue({ code: 'custom', message: VALUE_FROM, path: ['valueFrom'] });
      return z.NEVER;
    }
    return { name: raw.name, value: raw.value ?? '' };
  });
