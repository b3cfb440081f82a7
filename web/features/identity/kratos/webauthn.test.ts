import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isInputNode, type InputNode } from './nodes';
import { input, loginFlow, passkeyOptions } from './test-flows';
import { onclickArgument, runCeremony, webAuthnAction } from './webauthn';

const browser = vi.hoisted(() => ({
  startRegistration: vi.fn(async () => ({ id: 'new-credential' })),
  startAuthentication: vi.fn(async () => ({ id: 'used-credential' })),
}));
vi.mock('@simplewebauthn/browser', () => browser);

const registration = {
  rp: { id: 'localhost', name: 'Watchkeeper' },
  user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'Ada Admin' },
  challenge: 'Y2hhbGxlbmdl',
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  excludeCredentials: [{ id: 'a2V5', type: 'public-key', transports: ['usb'] }],
  authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
  attestation: 'none',
  extensions: { credProps: true },
};

function asInput(node: ReturnType<typeof input>): InputNode {
  if (!isInputNode(node)) throw new Error('not an input');
  return node;
}

describe('WebAuthn buttons', () => {
  beforeEach(() => vi.clearAllMocks());

  it('reads the options from onclick without running it', () => {
    expect(onclickArgument(`window.oryWebAuthnRegistration(${JSON.stringify(registration)})`)).toEqual(registration);
    expect(onclickArgument('alert(1)')).toBeUndefined();
    expect(onclickArgument(undefined)).toBeUndefined();
  });

  it('maps each trigger to its ceremony and the field the server reads', () => {
    const key = asInput(input('webauthn', 'webauthn_register_trigger', 'button', { onclickTrigger: 'oryWebAuthnRegistration', onclick: `window.oryWebAuthnRegistration(${JSON.stringify(registration)})` }));
    expect(webAuthnAction(key, [key])).toEqual({ ceremony: 'register', options: registration, field: 'webauthn_register', method: 'webauthn' });
    const login = asInput(input('webauthn', 'webauthn_login_trigger', 'button', { onclickTrigger: 'oryWebAuthnLogin', onclick: `window.oryWebAuthnLogin(${JSON.stringify({ publicKey: passkeyOptions })})` }));
    expect(webAuthnAction(login, [login])).toMatchObject({ ceremony: 'authenticate', options: passkeyOptions, field: 'webauthn_login' });
    const passkey = loginFlow.ui.nodes.filter(isInputNode).find((node) => node.attributes.name === 'passkey_login_trigger');
    expect(passkey && webAuthnAction(passkey, loginFlow.ui.nodes)).toEqual({ ceremony: 'authenticate', options: passkeyOptions, field: 'passkey_login', method: 'passkey' });
    const settings = [input('passkey', 'passkey_create_data', 'hidden', { value: JSON.stringify(registration) }), input('passkey', 'passkey_create_trigger', 'button', { onclickTrigger: 'oryPasskeySettingsRegistration' })];
    expect(webAuthnAction(asInput(settings[1] ?? input('x', 'x', 'button')), settings)).toMatchObject({ ceremony: 'register', field: 'passkey_settings_register', method: 'passkey' });
    expect(webAuthnAction(asInput(input('x', 'other', 'button', { onclickTrigger: 'somethingElse' })), [])).toBeUndefined();
  });

  it('runs the ceremony with @simplewebauthn/browser and answers its JSON', async () => {
    await expect(runCeremony({ ceremony: 'register', options: registration, field: 'webauthn_register', method: 'webauthn' })).resolves.toBe('{"id":"new-credential"}');
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: registration });
    await expect(runCeremony({ ceremony: 'authenticate', options: passkeyOptions, field: 'passkey_login', method: 'passkey' })).resolves.toBe('{"id":"used-credential"}');
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: passkeyOptions });
  });

  it('refuses options of the wrong shape before asking the authenticator', async () => {
    await expect(runCeremony({ ceremony: 'register', options: { challenge: 1 }, field: 'webauthn_register', method: 'webauthn' })).rejects.toThrow();
    expect(browser.startRegistration).not.toHaveBeenCalled();
  });
});
