import { z } from 'zod';

/**
 * The Ory Kratos public API shapes the console reads (self-service flows, their `ui` containers, error
 * bodies, success answers), checked at the boundary. Unknown keys are dropped; what the console does not
 * use is not required.
 */

export const FLOW_KINDS = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

const messageType = z.enum(['info', 'error', 'success']).catch('info');

export const uiTextSchema = z.object({
  id: z.number(),
  text: z.string(),
  type: messageType,
  context: z.record(z.string(), z.unknown()).optional(),
});
export type UiText = z.infer<typeof uiTextSchema>;

const inputAttributes = z.object({
  node_type: z.literal('input'),
  name: z.string(),
  type: z.string(),
  value: z.unknown().optional(),
  required: z.boolean().optional(),
  disabled: z.boolean().optional(),
  autocomplete: z.string().optional(),
  pattern: z.string().optional(),
  maxlength: z.number().optional(),
  onclick: z.string().optional(),
  onclickTrigger: z.string().optional(),
});
export type InputAttributes = z.infer<typeof inputAttributes>;

const textAttributes = z.object({ node_type: z.literal('text'), id: z.string(), text: uiTextSchema });
const imageAttributes = z.object({ node_type: z.literal('img'), id: z.string(), src: z.string(), width: z.number().optional(), height: z.number().optional() });
const anchorAttributes = z.object({ node_type: z.literal('a'), id: z.string(), href: z.string(), title: uiTextSchema });
// Kratos may send script nodes (its own webauthn.js) and divisions; the console never runs or shows them.
const ignoredAttributes = z.object({ node_type: z.enum(['script', 'div']) });

export const uiNodeSchema = z.object({
  type: z.string(),
  group: z.string(),
  attributes: z.discriminatedUnion('node_type', [inputAttributes, textAttributes, imageAttributes, anchorAttributes, ignoredAttributes]),
  messages: z.array(uiTextSchema).default([]),
  meta: z.object({ label: uiTextSchema.optional() }).default({}),
});
export type UiNode = z.infer<typeof uiNodeSchema>;

export const flowSchema = z.object({
  id: z.string(),
  type: z.string().optional(),
  return_to: z.string().optional(),
  /** Login: 'aal2' when this flow asks for the second factor. */
  requested_aal: z.string().optional(),
  /** Login: true when the person confirms who they are before a privileged change. */
  refresh: z.boolean().optional(),
  state: z.unknown().optional(),
  ui: z.object({
    action: z.string(),
    method: z.string(),
    nodes: z.array(uiNodeSchema),
    messages: z.array(uiTextSchema).optional(),
  }),
});
export type Flow = z.infer<typeof flowSchema>;

export const kratosErrorSchema = z.object({
  error: z.object({
    id: z.string().optional(),
    code: z.number().optional(),
    status: z.string().optional(),
    reason: z.string().optional(),
    message: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
  redirect_browser_to: z.string().optional(),
  use_flow_id: z.string().optional(),
});
export type KratosError = z.infer<typeof kratosErrorSchema>;

/** A finished login or registration: where the browser goes next. */
export const successSchema = z.object({
  continue_with: z
    .array(
      z.object({
        action: z.string(),
        redirect_browser_to: z.string().optional(),
        flow: z.object({ id: z.string(), url: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  return_to: z.string().optional(),
});

/** GET /self-service/errors?id= */
export const flowErrorSchema = z.object({
  id: z.string(),
  error: z.unknown(),
  created_at: z.string().optional(),
});
export type FlowError = z.infer<typeof flowErrorSchema>;
