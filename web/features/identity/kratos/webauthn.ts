import { z } from 'zod';
import type { InputNode } from './nodes';
import type { UiNode } from './schema';

/**
 * WebAuthn buttons of Kratos flows. Kratos puts the ceremony's options into the node (as the argument
 * of `window.oryWebAuthnRegistration(…)` / `window.oryWebAuthnLogin(…)` in `onclick`, or in a hidden
 * input for passkeys); the console parses them instead of running inline script (the CSP forbids it),
 * runs the ceremony with @simplewebauthn/browser (loaded only when a button is pressed), and submits the
 * result JSON in the field the server reads.
 */

const descriptor = z.object({ id: z.string(), type: z.literal('public-key'), transports: z.array(z.string()).optional() });
const requirement = z.enum(['discouraged', 'preferred', 'required']);

export const creationOptionsSchema = z.object({
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(descriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: requirement.optional(),
      userVerification: requirement.optional(),
    })
    .optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

export const requestOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(descriptor).optional(),
  userVerification: requirement.optional(),
});

export type Ceremony = 'register' | 'authenticate';

/** What a WebAuthn button does: which ceremony, where its options come from, and the fields to submit. */
export interface WebAuthnAction {
  ceremony: Ceremony;
  options: unknown;
  /** The hidden input that carries the result, and the method to submit with it. */
  field: string;
  method: 'webauthn' | 'passkey';
}

/** Reads the JSON argument of `window.oryWebAuthnLogin({...})`. */
export function onclickArgument(onclick: string | undefined): unknown {
  const match = /^\s*window\.\w+\(([\s\S]*)\)\s*;?\s*$/.exec(onclick ?? '');
  if (!match?.[1]) return undefined;
  return parseJson(match[1]);
}

function parseJson(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return undefined;
  }
}

/** Kratos itself wraps the options as `{ publicKey: … }`; ours are bare. Both are accepted. */
function unwrap(options: unknown): unknown {
  if (options && typeof options === 'object' && 'publicKey' in options) return options.publicKey;
  return options;
}

function hiddenValue(nodes: readonly UiNode[], name: string): string | undefined {
  for (const node of nodes) {
    if (node.attributes.node_type === 'input' && node.attributes.name === name && typeof node.attributes.value === 'string') return node.attributes.value;
  }
  return undefined;
}

/** The action of a button node, or undefined when it is not a WebAuthn trigger the console knows. */
export function webAuthnAction(node: InputNode, nodes: readonly UiNode[]): WebAuthnAction | undefined {
  switch (node.attributes.onclickTrigger) {
    case 'oryWebAuthnRegistration':
      return { ceremony: 'register', options: unwrap(onclickArgument(node.attributes.onclick)), field: 'webauthn_register', method: 'webauthn' };
    case 'oryWebAuthnLogin':
      return { ceremony: 'authenticate', options: unwrap(onclickArgument(node.attributes.onclick)), field: 'webauthn_login', method: 'webauthn' };
    case 'oryPasskeyLogin':
      return { ceremony: 'authenticate', options: unwrap(parseJson(hiddenValue(nodes, 'passkey_challenge') ?? '')), field: 'passkey_login', method: 'passkey' };
    case 'oryPasskeySettingsRegistration':
      return { ceremony: 'register', options: unwrap(parseJson(hiddenValue(nodes, 'passkey_create_data') ?? '')), field: 'passkey_settings_register', method: 'passkey' };
    default:
      return undefined;
  }
}

/** Runs the ceremony in the browser; answers the JSON to submit. Throws when the person cancels or the options are bad. */
export async function runCeremony(action: WebAuthnAction): Promise<string> {
  const browser = await import('@simplewebauthn/browser');
  if (action.ceremony === 'register') {
    const optionsJSON = creationOptionsSchema.parse(action.options);
    return JSON.stringify(await browser.startRegistration({ optionsJSON }));
  }
  const optionsJSON = requestOptionsSchema.parse(action.options);
  return JSON.stringify(await browser.startAuthentication({ optionsJSON }));
}
