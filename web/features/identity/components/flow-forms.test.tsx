// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flow, input, loginFlow, passkeyOptions, secondFactorFlow } from '../kratos/test-flows';
import type { UiNode } from '../kratos/schema';
import { FlowForms } from './flow-forms';

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(async () => ({ id: 'passkey-credential' })),
  startRegistration: vi.fn(async () => ({ id: 'new-key' })),
}));

function renderFlow(nodes = loginFlow) {
  const onSubmit = vi.fn(async (_body: Record<string, unknown>) => undefined);
  const onNotice = vi.fn();
  const view = render(<FlowForms flow={nodes} busy={false} onSubmit={onSubmit} onNotice={onNotice} />);
  return { onSubmit, onNotice, ...view };
}

const withMessages = (node: UiNode, text: string): UiNode => ({ ...node, messages: [{ id: 4000005, text, type: 'error' }] });

describe('flow renderer', () => {
  beforeEach(() => vi.clearAllMocks());

  it('renders one form per method group, with labelled inputs and the identifier once', () => {
    const { container } = renderFlow();
    expect([...container.querySelectorAll('form')].map((form) => form.dataset.group)).toEqual(['password', 'passkey']);
    expect(screen.getAllByLabelText('Email')).toHaveLength(1);
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(container.querySelector('input[name="csrf_token"]')).toBeNull();
  });

  it("posts the clicked method's form with the csrf token and the button's own name and value", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderFlow();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret words');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 'csrf-123', identifier: 'ada@example.com', password: 'secret words', method: 'password' });
  });

  it("does not let one method's required fields block another method", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderFlow(secondFactorFlow);
    // Its own required field does block it.
    await user.click(screen.getByRole('button', { name: 'Use backup recovery code' }));
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Backup recovery code'), 'abcd-1234');
    await user.click(screen.getByRole('button', { name: 'Use backup recovery code' }));
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 'csrf-123', lookup_secret: 'abcd-1234', method: 'lookup_secret' });
  });

  it('signs in with a passkey: the ceremony runs with the challenge and its result is posted', async () => {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const user = userEvent.setup();
    const { onSubmit } = renderFlow();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: passkeyOptions });
    // Every form carries the default group (the identifier too, empty here).
    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: 'csrf-123',
      identifier: '',
      passkey_challenge: JSON.stringify(passkeyOptions),
      passkey_login: JSON.stringify({ id: 'passkey-credential' }),
      method: 'passkey',
    });
  });

  it('shows field messages under their field and marks it invalid', () => {
    const nodes = flow([
      withMessages(input('password', 'password', 'password', { label: 'Password' }), 'The password cannot be used: it is too short.'),
      input('password', 'method', 'submit', { value: 'password', label: 'Save' }),
    ]);
    renderFlow(nodes);
    const field = screen.getByLabelText('Password');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('The password cannot be used: it is too short.');
  });

  it('shows text, image and link nodes: the TOTP secret, its QR code, backup codes, Continue', () => {
    const codes = [{ id: 1050009, text: 'aaaa-1111', type: 'info' as const }, { id: 1050009, text: 'bbbb-2222', type: 'info' as const }];
    const nodes = flow([
      { type: 'img', group: 'totp', attributes: { node_type: 'img', id: 'totp_qr', src: 'data:image/png;base64,AAAA', width: 256, height: 256 }, messages: [], meta: { label: { id: 1050005, text: 'Authenticator app QR code', type: 'info' } } },
      {
        type: 'text',
        group: 'totp',
        attributes: { node_type: 'text', id: 'totp_secret_key', text: { id: 1050006, text: 'JBSWY3DPEHPK3PXP', type: 'info', context: { secret: 'JBSWY3DPEHPK3PXP' } } },
        messages: [],
        meta: { label: { id: 1050017, text: 'If you cannot scan the QR code, enter this secret in your authenticator app.', type: 'info' } },
      },
      { type: 'text', group: 'lookup_secret', attributes: { node_type: 'text', id: 'lookup_secret_codes', text: { id: 1050015, text: 'aaaa-1111, bbbb-2222', type: 'info', context: { secrets: codes } } }, messages: [], meta: {} },
      { type: 'a', group: 'code', attributes: { node_type: 'a', id: 'continue', href: 'http://localhost/', title: { id: 1070009, text: 'Continue', type: 'info' } }, messages: [], meta: {} },
    ]);
    renderFlow(nodes);
    expect(screen.getByRole('img', { name: 'Authenticator app QR code' }).getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(screen.getByTestId('totp_secret_key').textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(within(screen.getByTestId('lookup_secret_codes')).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['aaaa-1111', 'bbbb-2222']);
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('http://localhost/');
  });

  it('asks before removing a security key, then posts its id', async () => {
    const user = userEvent.setup();
    const nodes = flow([input('webauthn', 'webauthn_remove', 'submit', { value: 'key-1', label: 'Remove security key "Desk key"' })]);
    const { onSubmit } = renderFlow(nodes);
    await user.click(screen.getByRole('button', { name: 'Remove security key "Desk key"' }));
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 'csrf-123', webauthn_remove: 'key-1' });
  });

  it('shows why a security key prompt failed instead of posting', async () => {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    vi.mocked(startAuthentication).mockRejectedValueOnce(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
    const user = userEvent.setup();
    const { onSubmit, onNotice } = renderFlow();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(onNotice).toHaveBeenLastCalledWith({ id: 0, text: 'The security key or passkey prompt was closed or timed out. Try again.', type: 'error' });
  });
});
