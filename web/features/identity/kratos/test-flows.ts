// Flows as the server builds them (server/features/identity/kratos/*.ts), for the renderer's tests.
import type { Flow, UiNode } from './schema';

const label = (text: string, id = 1070001) => ({ id, text, type: 'info' as const });

export function input(group: string, name: string, type: string, options: Partial<{ value: unknown; required: boolean; label: string; onclick: string; onclickTrigger: string }> = {}): UiNode {
  return {
    type: 'input',
    group,
    attributes: {
      node_type: 'input',
      name,
      type,
      disabled: false,
      ...(options.value !== undefined ? { value: options.value } : {}),
      ...(options.required ? { required: true } : {}),
      ...(options.onclick ? { onclick: options.onclick } : {}),
      ...(options.onclickTrigger ? { onclickTrigger: options.onclickTrigger } : {}),
    },
    messages: [],
    meta: options.label ? { label: label(options.label) } : {},
  };
}

export const csrf = input('default', 'csrf_token', 'hidden', { value: 'csrf-123', required: true });

export function flow(nodes: UiNode[], extra: Partial<Flow> = {}): Flow {
  return { id: 'flow-1', type: 'browser', ui: { action: '/api/.ory/self-service/login?flow=flow-1', method: 'POST', nodes: [csrf, ...nodes] }, ...extra };
}

export const passkeyOptions = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' };

/** A first-factor login: identifier, password, and a passkey button. */
export const loginFlow = flow([
  input('default', 'identifier', 'text', { required: true, label: 'Email' }),
  input('password', 'password', 'password', { required: true, label: 'Password' }),
  input('password', 'method', 'submit', { value: 'password', label: 'Sign in' }),
  input('passkey', 'passkey_challenge', 'hidden', { value: JSON.stringify(passkeyOptions) }),
  input('passkey', 'passkey_login', 'hidden', { value: '' }),
  input('passkey', 'passkey_login_trigger', 'button', { value: '', onclickTrigger: 'oryPasskeyLogin', label: 'Sign in with a passkey' }),
]);

/** The second step: authenticator code or a backup code. */
export const secondFactorFlow = flow(
  [
    input('totp', 'totp_code', 'text', { required: true, label: 'Authentication code' }),
    input('totp', 'method', 'submit', { value: 'totp', label: 'Use authenticator' }),
    input('lookup_secret', 'lookup_secret', 'text', { required: true, label: 'Backup recovery code' }),
    input('lookup_secret', 'method', 'submit', { value: 'lookup_secret', label: 'Use backup recovery code' }),
  ],
  { requested_aal: 'aal2' },
);
