// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceRegistryContext } from '@web/features/settings/resources/registry-context';
import ResourceDetailPage from '@web/features/settings/resources/resource-detail-page';
import { renderPage, stubFetch, VIEWER_ACCESS, type Call } from '@web/features/users/testing';
import { teamsResource } from './resource';
import { CHANNELS_EXPLANATION, NO_CHANNELS_TEXT, redactUrl } from './channels';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

beforeAll(() => {
  // Radix Select measures and captures the pointer; jsdom has neither.
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
  // Radix RadioGroup measures its items.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const connections = [
  { id: 'c1', name: 'ops-slack', namespace: 'default', type: 'slack' },
  { id: 'c2', name: 'pager', namespace: 'oncall', type: 'opsgenie' },
];

let team: Record<string, unknown>;
let refuse: string | undefined;
let calls: Call[];

beforeEach(() => {
  team = {
    id: 't1',
    name: 'platform',
    icon: 'group',
    source: 'UI',
    spec: { oncall: 'pager', notifications: [{ url: 'slack://xoxb-secret-token@alerts/extra?x=1' }, { connection: 'connection://default/ops-slack', properties: { channel: '#ops' } }] },
  };
  refuse = undefined;
  calls = stubFetch((call) => {
    if (call.path === '/api/db/teams') {
      if (call.method === 'PATCH') {
        if (refuse) return { status: 403, body: { code: '42501', message: refuse } };
        team = { ...team, ...(call.body as Record<string, unknown>) };
        return { status: 204 };
      }
      return { body: [team] };
    }
    if (call.path === '/api/db/connections') return { body: connections };
    return { status: 404, body: { message: `${call.path} not found` } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.success.mockClear();
  toasts.error.mockClear();
});

const open = (permissions?: Parameters<typeof renderPage>[1]['permissions']) =>
  renderPage(
    <ResourceRegistryContext.Provider value={[teamsResource]}>
      <ResourceDetailPage />
    </ResourceRegistryContext.Provider>,
    { path: '/settings/teams/t1?tab=notifications', route: '/settings/:table/:id', ...(permissions ? { permissions } : {}) },
  );

const patches = () => calls.filter((call) => call.method === 'PATCH');

describe('team notification channels', () => {
  it('lists the channels with a connection by name and type and a URL without its token', async () => {
    open();
    expect(await screen.findByRole('tab', { name: 'Notifications', selected: true })).toBeTruthy();
    expect(await screen.findByText(CHANNELS_EXPLANATION)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Notification channels' });
    await within(table).findByText('default/ops-slack (Slack)');
    expect(within(table).getByText('slack://alerts')).toBeTruthy();
    expect(within(table).getByText('channel=#ops')).toBeTruthy();
    expect(table.textContent).not.toContain('xoxb');
    // Only notification connections are asked for.
    const list = calls.find((call) => call.path === '/api/db/connections');
    expect(list?.search).toMatch(/^\?select=id,name,namespace,type&type=in\.\(.*slack.*\)&order=name\.asc&limit=500$/);
    expect(list?.search).not.toContain('postgres');
  });

  it('adds email addresses with properties, validating them, and keeps the other spec keys', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('default/ops-slack (Slack)');
    await user.click(screen.getByRole('button', { name: 'Add channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a notification channel to platform' });
    await user.click(within(dialog).getByRole('radio', { name: /Email addresses/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('This field is required')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Email addresses'), 'ops@example.com, nope');
    expect(within(dialog).getByText('Not a valid email address: nope')).toBeTruthy();
    expect(patches()).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Email addresses'));
    await user.type(within(dialog).getByLabelText('Email addresses'), 'ops@example.com, sre@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add property' }));
    await user.type(within(dialog).getByLabelText('Property 1 key'), 'subject');
    await user.type(within(dialog).getByLabelText('Property 1 value'), 'Team alert');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(patches()).toHaveLength(1);
    expect(patches()[0]?.search).toBe('?id=eq.t1');
    expect(patches()[0]?.body).toEqual({
      spec: {
        oncall: 'pager',
        notifications: [
          { url: 'slack://xoxb-secret-token@alerts/extra?x=1' },
          { connection: 'connection://default/ops-slack', properties: { channel: '#ops' } },
          { emails: ['ops@example.com', 'sre@example.com'], properties: { subject: 'Team alert' } },
        ],
      },
    });
    expect(toasts.success).toHaveBeenCalledWith('Team updated successfully', expect.anything());
    await screen.findByText('ops@example.com, sre@example.com');
  });

  it('adds a notification connection chosen from the list as connection://namespace/name', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('default/ops-slack (Slack)');
    await user.click(screen.getByRole('button', { name: 'Add channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a notification channel to platform' });
    await user.click(within(dialog).getByRole('radio', { name: /Connection/ }));
    await user.click(await within(dialog).findByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'oncall/pager (OpsGenie)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(patches()).toHaveLength(1));
    const body = patches()[0]?.body as { spec: { notifications: unknown[] } };
    expect(body.spec.notifications.at(-1)).toEqual({ connection: 'connection://oncall/pager' });
  });

  it('refuses a service URL that is not one, and shows the server message when saving fails', async () => {
    const user = userEvent.setup();
    refuse = 'permission denied for relation teams';
    open();
    await screen.findByText('default/ops-slack (Slack)');
    await user.click(screen.getByRole('button', { name: 'Add channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a notification channel to platform' });
    await user.click(within(dialog).getByRole('radio', { name: /Service URL/ }));
    await user.type(within(dialog).getByLabelText('Service URL'), 'not a url');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Enter a service URL such as slack://token@channel')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Service URL'));
    await user.type(within(dialog).getByLabelText('Service URL'), 'teams://group@tenant/altId/groupOwner');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(refuse, expect.anything()));
    expect(screen.getByRole('dialog', { name: 'Add a notification channel to platform' })).toBeTruthy();
  });

  it('removes a channel after confirmation, and says members are notified when none is left', async () => {
    const user = userEvent.setup();
    team = { ...team, spec: { oncall: 'pager', notifications: [{ emails: ['ops@example.com'] }] } };
    open();
    await user.click(await screen.findByRole('button', { name: 'Remove ops@example.com' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove channel' });
    expect(confirm.textContent).toContain('Are you sure you want to remove ops@example.com from the notification channels of platform?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(patches()[0]?.body).toEqual({ spec: { oncall: 'pager' } });
    expect(toasts.success).toHaveBeenCalledWith('Team updated successfully', expect.anything());
    expect(await screen.findByText(NO_CHANNELS_TEXT)).toBeTruthy();
  });

  it('keeps the channels of a linked team read-only, and says so', async () => {
    team = { ...team, source: 'KubernetesCRD' };
    open();
    await screen.findByText('default/ops-slack (Slack)');
    expect(screen.getByText(/its notification channels are read-only here/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add channel' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
  });

  it('offers no changes to a reader', async () => {
    open(VIEWER_ACCESS);
    await screen.findByText('slack://alerts');
    expect(screen.queryByRole('button', { name: 'Add channel' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
  });
});

describe('redactUrl', () => {
  it('keeps only the scheme and host', () => {
    expect(redactUrl('slack://xoxb-1@alerts')).toBe('slack://alerts');
    expect(redactUrl('smtp://user:pass@mail.example.com:587/?to=a@b')).toBe('smtp://mail.example.com');
    expect(redactUrl('no scheme')).toBe('(hidden)');
  });
});
