// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceRegistryContext } from '@web/features/settings/resources/registry-context';
import ResourceDetailPage from '@web/features/settings/resources/resource-detail-page';
import { renderPage, stubFetch, VIEWER_ACCESS, type Call } from '@web/features/users/testing';
import { teamsResource } from './resource';
import { NO_MEMBERS_TEXT } from './members-tab';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

interface Person {
  id: string;
  name: string;
  email: string;
  avatar: null;
}
const ada: Person = { id: 'p-ada', name: 'Ada Lovelace', email: 'ada@example.com', avatar: null };
const bob: Person = { id: 'p-bob', name: 'Bob Byte', email: 'bob@example.com', avatar: null };
const cy: Person = { id: 'p-cy', name: 'Cy Ops', email: 'cy@example.com', avatar: null };

let team: Record<string, unknown>;
let members: Person[];
let refuseAdd: string | undefined;
let calls: Call[];

function param(call: Call, key: string): string | undefined {
  return new URLSearchParams(call.search).get(key) ?? undefined;
}

beforeEach(() => {
  team = { id: 't1', name: 'platform', icon: 'group', source: 'UI', spec: {} };
  members = [ada];
  refuseAdd = undefined;
  calls = stubFetch((call) => {
    if (call.path === '/api/db/teams') return { body: [team] };
    if (call.path === '/api/db/people') {
      const term = /\*(.*?)\*/.exec(param(call, 'or') ?? '')?.[1]?.toLowerCase() ?? '';
      return { body: [ada, bob, cy].filter((person) => person.name.toLowerCase().includes(term) || person.email.includes(term)) };
    }
    if (call.path === '/api/db/team_members') {
      if (call.method === 'GET') return { body: members.map((person) => ({ team_id: 't1', person_id: person.id, created_at: '2024-05-01T10:00:00Z', person })) };
      if (call.method === 'POST') {
        if (refuseAdd) return { status: 409, body: { code: '23505', message: refuseAdd } };
        const ids = Array.isArray(call.body) ? call.body.map((row: { person_id: string }) => row.person_id) : [];
        members = [...members, ...[ada, bob, cy].filter((person) => ids.includes(person.id))];
        return { status: 201 };
      }
      if (call.method === 'DELETE') {
        members = members.filter((person) => `eq.${person.id}` !== param(call, 'person_id'));
        return { status: 204 };
      }
    }
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
    { path: '/settings/teams/t1?tab=members', route: '/settings/:table/:id', ...(permissions ? { permissions } : {}) },
  );

describe('team members', () => {
  it('lists the members of the team with their email and when they were added', async () => {
    open();
    expect(await screen.findByRole('tab', { name: 'Members', selected: true })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Team members' });
    const row = await within(table).findByRole('row', { name: /Ada Lovelace/ });
    expect(within(row).getByText('ada@example.com')).toBeTruthy();
    expect(screen.getByText('1 member')).toBeTruthy();
    const list = calls.find((call) => call.path === '/api/db/team_members');
    expect(list?.search).toBe('?select=team_id,person_id,created_at,person:people(id,name,email,avatar)&team_id=eq.t1&order=created_at.desc');
  });

  it('adds several people found by name or email at once', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Add members' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add members to platform' });
    expect(within(dialog).getByText('Start typing to search')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Search people'), 'example');
    const people = within(dialog).getByRole('group', { name: 'People' });
    await within(people).findByText('Bob Byte');
    const search = calls.filter((call) => call.path === '/api/db/people');
    // Debounced (spec §9: 300 ms): one request for the whole word, not one per key.
    expect(search).toHaveLength(1);
    expect(search[0]?.search).toBe('?select=id,name,email,avatar&or=(name.ilike."*example*",email.ilike."*example*")&order=name.asc&limit=20');
    const already = within(people).getByRole<HTMLInputElement>('checkbox', { name: /Ada Lovelace/ });
    expect(already.disabled).toBe(true);
    expect(within(people).getByText('Already a member')).toBeTruthy();
    await user.click(within(people).getByRole('checkbox', { name: /Bob Byte/ }));
    await user.click(within(people).getByRole('checkbox', { name: /Cy Ops/ }));
    expect(within(dialog).getByRole('list', { name: 'Selected people' }).textContent).toBe('Bob ByteCy Ops');
    await user.click(within(dialog).getByRole('button', { name: 'Add 2' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual([
      { team_id: 't1', person_id: 'p-bob' },
      { team_id: 't1', person_id: 'p-cy' },
    ]);
    expect(toasts.success).toHaveBeenCalledWith('Bob Byte, Cy Ops added to the team successfully', expect.anything());
    await screen.findByText('3 members');
  });

  it('shows the returned error message when adding fails, and keeps the choice to retry', async () => {
    const user = userEvent.setup();
    refuseAdd = 'duplicate key value violates unique constraint "team_members_pkey"';
    open();
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Add members' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add members to platform' });
    await user.type(within(dialog).getByLabelText('Search people'), 'bob');
    await user.click(await within(dialog).findByRole('checkbox', { name: /Bob Byte/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add 1' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(refuseAdd, expect.anything()));
    expect(screen.getByRole('dialog', { name: 'Add members to platform' })).toBeTruthy();
  });

  it('removes a member after confirmation, and says so when the team is empty', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Remove Ada Lovelace' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove member' });
    expect(confirm.textContent).toContain('Are you sure you want to remove Ada Lovelace from platform?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.find((call) => call.method === 'DELETE')?.search).toBe('?team_id=eq.t1&person_id=eq.p-ada');
    expect(toasts.success).toHaveBeenCalledWith('Ada Lovelace removed from team successfully', expect.anything());
    expect(await screen.findByText(NO_MEMBERS_TEXT)).toBeTruthy();
  });

  it('offers no changes to a reader or on a linked team', async () => {
    open(VIEWER_ACCESS);
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Add members' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Ada Lovelace' })).toBeNull();
  });

  it('keeps the members of a linked team read-only', async () => {
    team = { ...team, source: 'KubernetesCRD' };
    open();
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Add members' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Ada Lovelace' })).toBeNull();
  });
});
