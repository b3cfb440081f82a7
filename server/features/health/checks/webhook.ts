import { z } from 'zod';
import { defineCheckType } from '../define';
import { envVarField } from '../../../platform/peers/credentials';

/**
 * canary-checker's WebhookCheck: `spec.webhook` is one check (not a list) whose results are posted to
 * POST /webhook/{check id or name} (server/features/health/webhook.ts). `token`, when set, must come
 * with each post (`?token=` or a `Webhook-Token` header).
 */
const schema = z.object({ token: envVarField.optional() }).loose();

/** `webhook`: a push check; the scheduler and Run Now never run it. */
export const webhookCheck = defineCheckType({
  type: 'webhook',
  label: 'Webhook',
  icon: 'webhook',
  schema,
  push: true,
  endpoint: (spec) => `POST /webhook/${typeof spec.name === 'string' ? encodeURIComponent(spec.name) : ''}`,
  run: async () => ({ pass: false, invalid: true, message: 'webhook checks are not run: their results are posted to /webhook/{id}', data: {} }),
});
