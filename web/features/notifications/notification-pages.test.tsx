// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { currentLocation, renderPage, stubFetch, type Answer, type Call } from '@web/features/users/testing';
import RulePage from './rules/rule-page';
import RulesPage from './rules/rules-page';
import SilencesPage from './silences/silences-page';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const WRITER: AccessMap = { notifications: ['read', 'create', 'update', 'delete'] };
const READER: AccessMap = { notifications: ['read'] };

const rule = {
  id: 'n1',
  name: 'web-failures',
  namespace: 'default',
  events: ['check.failed'],
  title: null,
  filter: null,
  person_id: null,
  team_id: 't1',
  custom_services: null,
  repeat_interval: null,
  group_by: null,
  wait_for: null,
  disabled: false,
  error: null,
  error_at: null,
  source: 'UI',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  sent: 40,
  failed: 3,
  pending: 0,
  silenced: 1,
  suppressed: 0,
  last_sent: '2026-01-02T00:00:00Z',
  last_failed: null,
  status: 'ok',
  person: null,
  team: { id: 't1', name: 'SRE' },
};
const fromFile = { ...rule, id: 'n2', name: 'from-git', source: 'KubernetesCRD', status: 'error', error: 'spec.filter: no such field', team: null, team_id: null, custom_services: [{ kind: 'email', email: 'ops@example.com' }] };

const silence = {
  id: 's1',
  name: null,
  namespace: 'default',
  description: 'db maintenance',
  from: '2020-01-01T00:00:00Z',
  until: null,
  recursive: true,
  config_id: 'k1',
  check_id: null,
  canary_id: null,
  component_id: null,
  filter: null,
  selectors: null,
  error: null,
  source: 'UI',
  created_at: '2020-01-01T00:00:00Z',
  created_by_person: { id: 'p1', name: 'Ada Admin', email: null },
};

let respond: (call: Call) => Answer | undefined;
let calls: Call[];
beforeEach(() => {
  respond = (call) => {
    if (call.path === '/api/db/notifications_summary') return { body: [rule, fromFile] };
    if (call.path === '/api/notification/summary') return { body: [{ notification_id: 'n1', sent: 7, failed: 1, pending: 2, last_sent: '2026-01-02T00:00:00Z' }] };
    if (call.path === '/api/notifications/n1' && call.method === 'PATCH') return { body: {} };
    if (call.path === '/api/db/notification_silences') return { body: [silence] };
    if (call.path === '/api/db/config_items') return { body: [{ id: 'k1', name: 'orders-db', type: 'AWS::RDS::DBInstance' }] };
    if (call.path === '/api/notification/silence/s1' && call.method === 'DELETE') return { body: {} };
    return undefined;
  };
  calls = stubFetch((call) => respond(call));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.success.mockClear();
  toasts.error.mockClear();
});

describe('notification rules list', () => {
  it('lists rules with their recipient, status and the counts over the chosen range', async () => {
    renderPage(<RulesPage />, { path: '/notifications', route: '/notifications', permissions: WRITER });
    const table = await screen.findByRole('table', { name: 'Notification rules' });
    const row = await within(table).findByRole('row', { name: /web-failures/ });
    await within(row).findByText('7');
    for (const text of ['SRE', 'check.failed', 'OK', '1', '2']) expect(within(row).getAllByText(text).length).toBeGreaterThan(0);
    const other = within(table).getByRole('row', { name: /from-git/ });
    expect(within(other).getByText('ops@example.com')).toBeTruthy();
    expect(within(other).getByLabelText('Error: spec.filter: no such field')).toBeTruthy();
    // A rule from a file can be viewed, not deleted.
    expect(within(other).queryByRole('button', { name: 'Delete from-git' })).toBeNull();
    expect(within(other).getByRole('button', { name: 'View from-git' })).toBeTruthy();
    const counts = calls.find((call) => call.path === '/api/notification/summary');
    expect(counts?.method).toBe('POST');
    const body = counts?.body;
    expect(body && typeof body === 'object' && 'from' in body && 'to' in body).toBe(true);
  });

  it('shows a rule that waits for a team that does not exist yet, and what it waits for', async () => {
    const waiting = { ...rule, id: 'n3', name: 'night-shift-alerts', status: 'waiting', team: null, team_id: null, waiting_for: [{ path: 'spec.to.team', kind: 'team', ref: 'night-shift' }] };
    respond = (call) => (call.path === '/api/db/notifications_summary' ? { body: [waiting] } : call.path === '/api/notification/summary' ? { body: [] } : undefined);
    renderPage(<RulesPage />, { path: '/notifications', route: '/notifications', permissions: READER });
    const table = await screen.findByRole('table', { name: 'Notification rules' });
    const row = await within(table).findByRole('row', { name: /night-shift-alerts/ });
    expect(within(row).getByText('night-shift (waiting)')).toBeTruthy();
    expect(
      within(row).getByLabelText('Waiting: Waits for team "night-shift" (spec.to.team), which does not exist yet: nothing is sent there until it is created.'),
    ).toBeTruthy();
  });

  it('disables a rule with its switch and says so', async () => {
    const user = userEvent.setup();
    renderPage(<RulesPage />, { path: '/notifications', route: '/notifications', permissions: WRITER });
    await user.click(await screen.findByRole('switch', { name: 'Enable web-failures' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Notification updated successfully', expect.anything()));
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ disabled: true });
  });

  it('keeps the range and the search in the URL', async () => {
    renderPage(<RulesPage />, { path: '/notifications?range=7d&q=web', route: '/notifications', permissions: READER });
    await screen.findByRole('table', { name: 'Notification rules' });
    expect(calls.find((call) => call.path === '/api/db/notifications_summary')?.search).toContain('name.ilike."*web*"');
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
    expect(currentLocation()).toBe('/notifications?range=7d&q=web');
  });

  it('says there are none yet, with the New rule button', async () => {
    respond = () => ({ body: [] });
    renderPage(<RulesPage />, { path: '/notifications', route: '/notifications', permissions: WRITER });
    await screen.findByText('No notification rules yet');
    expect(screen.getByRole('button', { name: 'New rule' })).toBeTruthy();
  });

  it('shows the Unauthorized page without read access, and asks nothing', async () => {
    renderPage(<RulesPage />, { path: '/notifications', route: '/notifications', permissions: {} });
    await screen.findByText('You do not have permission to access this page');
    expect(calls.filter((call) => call.path === '/api/db/notifications_summary')).toHaveLength(0);
  });
});

describe('/notifications/rules (spec §2: query id)', () => {
  it('lists the rules without an id, not an empty page', async () => {
    renderPage(<RulePage />, { path: '/notifications/rules', route: '/notifications/rules', permissions: READER });
    const table = await screen.findByRole('table', { name: 'Notification rules' });
    expect(await within(table).findByRole('row', { name: /web-failures/ })).toBeTruthy();
    expect(within(table).getByRole('row', { name: /from-git/ })).toBeTruthy();
    expect(screen.queryByText('No rule chosen')).toBeNull();
    expect(calls.some((call) => call.path === '/api/db/notifications_summary' && !call.search.includes('id=eq.'))).toBe(true);
  });

  it('shows one rule with an id', async () => {
    respond = (call) => {
      if (call.path === '/api/db/notifications_summary') return { body: call.search.includes('id=eq.n1') ? [rule] : [rule, fromFile] };
      if (call.path === '/api/db/notification_send_history') return { body: [] };
      return undefined;
    };
    renderPage(<RulePage />, { path: '/notifications/rules?id=n1', route: '/notifications/rules', permissions: READER });
    expect(await screen.findByRole('heading', { name: 'Send history' })).toBeTruthy();
    expect(screen.getByText('web-failures', { selector: '[aria-current="page"]' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Notification rules' })).toBeNull();
  });
});

describe('silences list', () => {
  it("shows what a silence mutes, 'Indefinitely' for no end, and deletes it after confirming", async () => {
    const user = userEvent.setup();
    renderPage(<SilencesPage />, { path: '/notifications/silences', route: '/notifications/silences', permissions: WRITER });
    const row = await within(await screen.findByRole('table', { name: 'Silences' })).findByRole('row', { name: /db maintenance/ });
    expect((await within(row).findByRole('link', { name: 'orders-db' })).getAttribute('href')).toBe('/catalog/k1');
    for (const text of ['Indefinitely', 'Yes', 'Ada Admin', 'Active']) expect(within(row).getByText(text)).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Delete db maintenance' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Silence' });
    expect(within(confirm).getByText('Are you sure you want to delete db maintenance?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Silence deleted successfully', expect.anything()));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/notification/silence/s1')).toBe(true);
  });

  it('ends an active silence now after confirming', async () => {
    const user = userEvent.setup();
    renderPage(<SilencesPage />, { path: '/notifications/silences', route: '/notifications/silences', permissions: WRITER });
    const row = await within(await screen.findByRole('table', { name: 'Silences' })).findByRole('row', { name: /db maintenance/ });
    // The row is drawn again once the config item's name is in.
    await within(row).findByRole('link', { name: 'orders-db' });
    await user.click(within(row).getByRole('button', { name: 'End db maintenance now' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'End Silence' })).getByRole('button', { name: 'End now' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Silence updated successfully', expect.anything()));
    const patch = calls.find((call) => call.method === 'PATCH' && call.path === '/api/db/notification_silences');
    expect(patch?.search).toContain('id=eq.s1');
    const until = patch?.body && typeof patch.body === 'object' && 'until' in patch.body ? String(patch.body.until) : '';
    expect(Math.abs(new Date(until).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('offers no changes to a reader', async () => {
    renderPage(<SilencesPage />, { path: '/notifications/silences', route: '/notifications/silences', permissions: READER });
    const row = await within(await screen.findByRole('table', { name: 'Silences' })).findByRole('row', { name: /db maintenance/ });
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add silence' })).toBeNull();
  });
});
