// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderPage, stubFetch, type Answer, type Call } from './testing';
import UsersPage from './users-page';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

beforeAll(() => {
  // Radix Select measures and captures the pointer; jsdom has neither.
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
});

const LINK = 'http://localhost/recovery?flow=f-1';
let invite: Answer;
let calls: Call[];

beforeEach(() => {
  invite = { status: 201, body: { id: 'p-new', email: 'grace@example.com', role: 'viewer', recovery_link: LINK, mail_sent: false, recovery_code: '123456' } };
  calls = stubFetch((call) => {
    if (call.path === '/api/auth/invite_user') return invite;
    return { body: [], headers: { 'content-range': '*/0' } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.success.mockClear();
  toasts.error.mockClear();
});

const location = currentLocation;
const inviteCall = () => calls.find((call) => call.path === '/api/auth/invite_user');

async function fill(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, email = 'grace@example.com') {
  await user.type(within(dialog).getByLabelText('First name'), 'Grace');
  await user.type(within(dialog).getByLabelText('Last name'), 'Hopper');
  await user.type(within(dialog).getByLabelText('Email'), email);
}

describe('invite user', () => {
  it('opens from the button with the open dialog in the URL', async () => {
    const user = userEvent.setup();
    renderPage(<UsersPage />, { path: '/settings/users', route: '/settings/users' });
    await user.click(await screen.findByRole('button', { name: 'Invite user' }));
    expect(await screen.findByRole('dialog', { name: 'Invite user' })).toBeTruthy();
    expect(location()).toBe('/settings/users?invite=1');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/settings/users');
  });

  it('requires names and a valid email, shown once a field is touched', async () => {
    const user = userEvent.setup();
    renderPage(<UsersPage />, { path: '/settings/users?invite=1', route: '/settings/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    expect(within(dialog).queryAllByRole('alert')).toHaveLength(0);
    await user.click(within(dialog).getByLabelText('First name'));
    await user.tab();
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This field is required');
    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await user.tab();
    await within(dialog).findByText('Please enter a valid email address');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(within(dialog).getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['This field is required', 'This field is required', 'Please enter a valid email address']);
    expect(inviteCall()).toBeUndefined();
  });

  it('invites with the chosen role and, without a mail server, shows the link and the code to pass on', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage(<UsersPage />, { path: '/settings/users?invite=1', route: '/settings/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    expect(within(dialog).getByRole('combobox', { name: 'Role' }).textContent).toBe('Viewer');
    await fill(user, dialog);
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Editor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));

    const result = await screen.findByRole('dialog', { name: 'User invited' });
    expect(inviteCall()).toMatchObject({ method: 'POST', body: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', role: 'editor' } });
    expect(within(result).getByRole('note').textContent).toContain('No mail server is configured, so no email was sent. Pass this link and code on to grace@example.com');
    expect(within(result).getByLabelText<HTMLInputElement>('Invitation link').value).toBe(LINK);
    expect(within(result).getByLabelText<HTMLInputElement>('Code').value).toBe('123456');
    // The code never reaches the URL (history, shared links).
    await waitFor(() => expect(location()).toBe('/settings/users'));
    await user.click(within(result).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('123456');
    expect(toasts.success).toHaveBeenCalledWith('Copied to clipboard', expect.anything());
    await user.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says the invitation was mailed when a mail server sent it, without showing a code', async () => {
    const user = userEvent.setup();
    invite = { status: 201, body: { id: 'p-new', email: 'grace@example.com', role: 'viewer', recovery_link: LINK, mail_sent: true } };
    renderPage(<UsersPage />, { path: '/settings/users?invite=1', route: '/settings/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    await fill(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    const result = await screen.findByRole('dialog', { name: 'User invited' });
    expect(result.textContent).toContain('An invitation was mailed to grace@example.com.');
    expect(within(result).queryByLabelText('Code')).toBeNull();
  });

  it("puts the server's message on the Email field when the address is taken", async () => {
    const user = userEvent.setup();
    invite = { status: 409, body: { error: 'conflict', message: 'an account with this email address exists already' } };
    renderPage(<UsersPage />, { path: '/settings/users?invite=1', route: '/settings/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    await fill(user, dialog, 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('an account with this email address exists already');
    expect(toasts.error).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Invite user' })).toBeTruthy();
  });

  it('toasts any other failure with its message', async () => {
    const user = userEvent.setup();
    invite = { status: 403, body: { error: 'forbidden', message: 'you may not create identities' } };
    renderPage(<UsersPage />, { path: '/settings/users?invite=1', route: '/settings/users' });
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    await fill(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith('you may not create identities', expect.anything()));
  });
});
