import type { TokenPreset } from '@common/rbac';
import { z } from 'zod';
import { DEFAULT_EXPIRY, EXPIRY_DATE_MESSAGE, expiryPayload, isValidExpiry } from './expiry';
import { noObjectActions, presetObjectActions, scopesOf, type ObjectActions } from './scopes';

export const NAME_REQUIRED = 'Name is required';
export const SCOPE_REQUIRED = 'Choose at least one scope';
export const MCP_SCOPE_REQUIRED = 'An MCP token needs the MCP scope: set MCP to Admin';

/** Spec §3 Token form values and §5 validation: a name that is not blank once trimmed, and some scope. */
export const tokenFormSchema = z.object({
  name: z.string().trim().min(1, NAME_REQUIRED),
  expiry: z.string().refine((value) => isValidExpiry(value), EXPIRY_DATE_MESSAGE),
  objectActions: z.record(z.string(), z.boolean().optional()).refine((flags) => Object.values(flags).some(Boolean), SCOPE_REQUIRED),
});
export type TokenFormValues = z.input<typeof tokenFormSchema>;

/**
 * 'default': the Tokens page; 'mcp': setting up an MCP client. Spec §4: MCP mode starts on Custom with
 * only the mcp scope on. A token whose only scopes are mcp scopes acts through MCP with its owner's
 * permissions (server/features/mcp); adding object scopes narrows it to them.
 */
export type TokenDialogMode = 'default' | 'mcp';

/**
 * The preset a new token starts from. Read, the narrowest: a token is a credential that leaves the
 * browser, so widening it is a choice the person makes.
 */
export const DEFAULT_PRESET: TokenPreset = 'Read';

export function initialPreset(mode: TokenDialogMode): TokenPreset {
  return mode === 'mcp' ? 'Custom' : DEFAULT_PRESET;
}

export function initialValues(mode: TokenDialogMode): TokenFormValues {
  const objectActions: ObjectActions = mode === 'mcp' ? { ...noObjectActions(), 'mcp:*': true } : presetObjectActions(DEFAULT_PRESET);
  return { name: mode === 'mcp' ? 'mcp-client' : '', expiry: DEFAULT_EXPIRY, objectActions };
}

/** Spec §3 Token create payload: name, expiry and the scopes with an empty subject. */
export function createPayload(values: z.output<typeof tokenFormSchema>) {
  return { name: values.name.trim(), expiry: expiryPayload(values.expiry), scope: scopesOf(values.objectActions) };
}
export type CreateTokenPayload = ReturnType<typeof createPayload>;
