// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '@web/app/providers';
import { testQueryClient } from '@web/app/test-utils';
import { PermissionDialog } from './permission-dialog';
import type { Permission } from './schema';

beforeAll(() => {
  // Radix Select uses pointer capture, scrolls its list and measures; jsdom has none of it.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const PAT = { id: '6f1c2f3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f', name: 'Pat Person', email: 'pat@example.com', avatar: null };
const TEAM = { id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', name: 'Ops' };

interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}
let calls: Call[] = [];
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const call = { method: init?.method ?? 'GET', path: url.pathname, search: decodeURIComponent(url.search), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (call.path === '/api/db/people') return json(call.search.includes('Pat') || call.search.includes(PAT.id) ? [PAT] : []);
      if (call.path === '/api/db/teams') return json([TEAM]);
      if (call.path === '/api/db/permissions' && call.method === 'PATCH') return json([{ id: 'p1' }]);
      if (call.path === '/api/db/permissions') return json(null, 201);
      return json({ message: 'not here' }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderDialog(props: { permission?: Permission | null; readOnlyReason?: string } = {}) {
  const onClose = vi.fn();
  render(
    <Providers queryClient={testQueryClient()} sessionSource={undefined}>
      <PermissionDialog permission={props.permission ?? null} readOnlyReason={props.readOnlyReason} onClose={onClose} />
    </Providers>,
  );
  return { onClose, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;
const dialog = () => screen.getByRole('dialog');

async function choose(user: User, label: string, option: string) {
  await user.click(within(dialog()).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function pickPat(user: User) {
  await user.type(within(dialog()).getByRole('combobox', { name: 'Person' }), 'Pat');
  await user.click(await screen.findByRole('option', { name: /Pat Person/ }, { timeout: 2000 }));
  await within(dialog()).findByText('pat@example.com');
}

const alerts = () => within(dialog()).queryAllByRole('alert').map((node) => node.textContent);

// Typing into its pickers in jsdom takes seconds; under a loaded CI machine more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });

describe('permission dialog', () => {
  it('says a field is required once it was touched, and all of them on save', async () => {
    const { user } = renderDialog();
    expect(alerts()).toEqual([]);
    await user.click(within(dialog()).getByRole('combobox', { name: 'Person' }));
    expect(within(dialog()).getByText('Start typing to search')).toBeTruthy();
    await user.tab();
    expect(alerts()).toEqual(['This field is required']);
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toEqual(['This field is required', 'This field is required']));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('clears the subject when its kind changes, and the resource when its kind changes', async () => {
    const { user } = renderDialog();
    await pickPat(user);
    await choose(user, 'Subject kind', 'Team');
    expect(within(dialog()).queryByText('Pat Person')).toBeNull();
    await choose(user, 'Team', 'Ops');
    await choose(user, 'Subject kind', 'Person');
    expect(within(dialog()).getByRole('combobox', { name: 'Person' })).toBeTruthy();

    await choose(user, 'Object', 'canaries');
    await choose(user, 'Resource kind', 'Catalog');
    const id = within(dialog()).getByLabelText('Catalog item ID');
    expect(id).toHaveProperty('value', '');
    await user.type(id, 'not-an-id');
    await user.tab();
    expect(alerts()).toContain('Must be an ID (a UUID)');
    await choose(user, 'Resource kind', 'Global');
    expect(within(dialog()).getByRole('combobox', { name: 'Object' }).textContent).toBe('');
  });

  it('needs an id or a selector for Catalog, and saves a selector row', async () => {
    const { user, onClose } = renderDialog();
    await pickPat(user);
    await choose(user, 'Resource kind', 'Catalog');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toEqual(['This field is required']));
    await user.click(within(dialog()).getByRole('button', { name: 'Add tag' }));
    await user.type(within(dialog()).getByLabelText('Tag 1 key'), 'env');
    await user.type(within(dialog()).getByLabelText('Tag 1 value'), 'prod');
    await waitFor(() => expect(alerts()).toEqual([]));
    await user.click(within(dialog()).getByLabelText(/^Deny/));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toMatchObject({ subject_type: 'person', subject: PAT.id, object: 'catalog', config_id: null, tags: { env: 'prod' }, deny: true, action: 'read' });
    expect(await screen.findByText('Permission added')).toBeTruthy();
  });

  it('updates an existing row by id', async () => {
    const { user, onClose } = renderDialog({
      permission: {
        id: 'p1', name: null, namespace: null, description: 'old', action: 'read', deny: false, subject: 'viewer', subject_type: 'group',
        person_id: null, team_id: null, notification_id: null, object: 'rbac', object_selector: null, config_id: null, component_id: null,
        canary_id: null, playbook_id: null, connection_id: null, tags: null, agents: null, until: null, source: 'UI',
        created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', person: null, team: null, group: 'viewer', created_by_person: null, waiting_for: [],
      },
    });
    expect(screen.getByRole('dialog', { name: 'Edit permission' })).toBeTruthy();
    expect(within(dialog()).getByRole('combobox', { name: 'Role' }).textContent).toBe('viewer');
    const description = within(dialog()).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'new');
    await user.click(within(dialog()).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.search).toContain('id=eq.p1');
    expect(patch?.body).toMatchObject({ subject_type: 'group', subject: 'viewer', object: 'rbac', description: 'new' });
    expect(await screen.findByText('Permission updated')).toBeTruthy();
  });

  it('only shows a read-only row, and says why', () => {
    renderDialog({
      readOnlyReason: 'This permission comes from KubernetesCRD, so it is read-only here: change it where it is defined.',
      permission: {
        id: 'p2', name: 'crd', namespace: 'default', description: 'from git', action: 'read', deny: false, subject: 'viewer', subject_type: 'group',
        person_id: null, team_id: null, notification_id: null, object: 'rbac', object_selector: null, config_id: null, component_id: null,
        canary_id: null, playbook_id: null, connection_id: null, tags: null, agents: null, until: null, source: 'KubernetesCRD',
        created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', person: null, team: null, group: 'viewer', created_by_person: null, waiting_for: [],
      },
    });
    expect(screen.getByRole('note').textContent).toContain('KubernetesCRD');
    expect(within(dialog()).queryByRole('button', { name: 'Update' })).toBeNull();
    expect(within(dialog()).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(dialog()).getByLabelText('Description').matches(':disabled')).toBe(true);
  });
});
