// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderPage, stubFetch, type Answer, type Call } from '@web/features/users/testing';
import type { PlaybookParamInput } from '../api/schema';
import { RunDialog } from './run-dialog';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const RUNNER = { playbooks: ['read' as const], playbook_runs: ['read' as const, 'playbook:run' as const] };

let params: PlaybookParamInput[];
let respond: (call: Call) => Answer | undefined;
let calls: Call[];
let release: (() => void) | undefined;

beforeEach(() => {
  params = [];
  release = undefined;
  respond = (call) => {
    if (call.path === '/api/playbook/pb1/params') return { body: { params } };
    if (call.path === '/api/db/config_items') return { body: [{ id: 'c1', name: 'orders-db', type: 'AWS::RDS::DBInstance' }] };
    return undefined;
  };
  calls = stubFetch((call) => respond(call));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.error.mockClear();
});

function open(spec: Record<string, unknown> | null = null, target?: { kind: 'config'; id: string; name: string }) {
  const onClose = vi.fn();
  renderPage(<RunDialog playbook={{ id: 'pb1', name: 'restart', title: 'Restart pod', spec }} target={target} onClose={onClose} />, { path: '/playbooks', route: '/playbooks/*', permissions: RUNNER });
  return onClose;
}

const runButton = () => screen.getByRole('button', { name: /^Run/ });
const isDisabled = (element: HTMLElement) => element.hasAttribute('disabled');

describe('run dialog', () => {
  it("says 'No parameters for this playbook.' and runs at once, landing on the run page", async () => {
    const user = userEvent.setup();
    respond = (call) => (call.path === '/api/playbook/run' ? { status: 201, body: { run_id: 'r9' } } : call.path === '/api/playbook/pb1/params' ? { body: { params: [] } } : undefined);
    const onClose = open();
    await screen.findByText('No parameters for this playbook.');
    await user.click(runButton());
    await waitFor(() => expect(currentLocation()).toBe('/playbooks/runs/r9'));
    expect(onClose).toHaveBeenCalled();
    expect(calls.find((call) => call.path === '/api/playbook/run')?.body).toEqual({ id: 'pb1', params: {} });
  });

  it("shows 'This field is required' after a required field is touched, and keeps Run disabled until it is filled", async () => {
    const user = userEvent.setup();
    params = [{ name: 'reason', label: 'Reason', type: 'text', required: true }];
    open();
    const input = await screen.findByLabelText('Reason');
    expect(isDisabled(runButton())).toBe(true);
    // Not shown before the field is touched.
    expect(screen.queryByText('This field is required')).toBeNull();
    await user.click(input);
    await user.tab();
    expect(await screen.findByText('This field is required')).toBeTruthy();
    await user.type(input, 'deploy stuck');
    expect(screen.queryByText('This field is required')).toBeNull();
    expect(isDisabled(runButton())).toBe(false);
  });

  it("says 'This field must be a number' for a number parameter", async () => {
    const user = userEvent.setup();
    params = [{ name: 'replicas', label: 'Replicas', type: 'number' }];
    open();
    const input = await screen.findByLabelText('Replicas');
    await user.type(input, 'three');
    await user.tab();
    expect(await screen.findByText('This field must be a number')).toBeTruthy();
    expect(isDisabled(runButton())).toBe(true);
    await user.clear(input);
    await user.type(input, '3');
    expect(screen.queryByText('This field must be a number')).toBeNull();
    expect(isDisabled(runButton())).toBe(false);
  });

  it('checks bytes (Mi/Gi/Ti), millicores (m suffix) and dns1123 values', async () => {
    const user = userEvent.setup();
    params = [
      { name: 'memory', label: 'Memory', type: 'bytes' },
      { name: 'cpu', label: 'CPU', type: 'millicores' },
      { name: 'host', label: 'Host', type: 'dns1123' },
    ];
    open();
    await user.type(await screen.findByLabelText('Memory'), '512MB');
    await user.type(screen.getByLabelText('CPU'), '0.5');
    await user.type(screen.getByLabelText('Host'), 'My_Host');
    await user.tab();
    expect(await screen.findByText('Must be a size in Mi, Gi or Ti, e.g. 512Mi')).toBeTruthy();
    expect(screen.getByText('Must be millicores with an m suffix, e.g. 500m')).toBeTruthy();
    expect(screen.getByText("Must be lowercase letters, digits, '-' and '.', starting and ending with a letter or digit")).toBeTruthy();
    expect(isDisabled(runButton())).toBe(true);
    for (const [label, value] of [['Memory', '2Gi'], ['CPU', '500m'], ['Host', 'api.example-1']] as const) {
      await user.clear(screen.getByLabelText(label));
      await user.type(screen.getByLabelText(label), value);
    }
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    expect(isDisabled(runButton())).toBe(false);
  });

  it('checks a multiline parameter against its minimum and maximum length and its regex', async () => {
    const user = userEvent.setup();
    params = [{ name: 'notes', label: 'Notes', type: 'text', properties: { multiline: true, minLength: 3, maxLength: 10, regex: '^[a-z ]+$' } }];
    open();
    const box = await screen.findByLabelText('Notes');
    expect(box.tagName).toBe('TEXTAREA');
    await user.type(box, 'ab');
    await user.tab();
    expect(await screen.findByText('Must be at least 3 characters')).toBeTruthy();
    await user.type(box, 'cdefghijkl');
    expect(await screen.findByText('Must be at most 10 characters')).toBeTruthy();
    await user.clear(box);
    await user.type(box, 'ABC');
    expect(await screen.findByText('Must match the pattern ^[a-z ]+$')).toBeTruthy();
    await user.clear(box);
    await user.type(box, 'all good');
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it("reads 'Running...' while the run is asked for, and shows the server's message when it is refused", async () => {
    const user = userEvent.setup();
    params = [{ name: 'reason', label: 'Reason', type: 'text', default: 'routine' }];
    respond = (call) => {
      if (call.path === '/api/playbook/pb1/params') return { body: { params } };
      return undefined;
    };
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), 'http://localhost');
        if (url.pathname === '/api/playbook/pb1/params') return new Response(JSON.stringify({ params }), { status: 200, headers: { 'content-type': 'application/json' } });
        if (url.pathname === '/api/playbook/run' && init?.method === 'POST') {
          await gate;
          return new Response(JSON.stringify({ error: 'invalid_request', message: 'reason: must not be routine', details: [{ path: 'body.params.reason', message: 'must not be routine' }] }), {
            status: 400,
            headers: { 'content-type': 'application/json' },
          });
        }
        return new Response(null, { status: 204 });
      }),
    );
    open();
    expect(((await screen.findByLabelText('Reason')) as HTMLInputElement).value).toBe('routine');
    await user.click(runButton());
    const busy = await screen.findByRole('button', { name: 'Running...' });
    expect(isDisabled(busy)).toBe(true);
    release?.();
    expect(await screen.findByText('reason: must not be routine')).toBeTruthy();
    expect(screen.getByText('must not be routine')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run' })).toBeTruthy();
    expect(currentLocation()).toBe('/playbooks');
  });

  it("asks for a resource first when the playbook runs on config items, then fetches the parameters for it", async () => {
    const user = userEvent.setup();
    params = [{ name: 'reason', label: 'Reason', type: 'text' }];
    open({ configs: [{ types: ['AWS::RDS::DBInstance'] }], actions: [] });
    await screen.findByText('Please select a resource to see the parameters.');
    expect(isDisabled(runButton())).toBe(true);
    expect(calls.some((call) => call.path === '/api/playbook/pb1/params')).toBe(false);
    await user.type(screen.getByRole('combobox', { name: /Config item/ }), 'orders');
    await user.click(await screen.findByRole('option', { name: /orders-db/ }));
    await screen.findByLabelText('Reason');
    expect(calls.find((call) => call.path === '/api/playbook/pb1/params')?.search).toBe('?config_id=c1');
    expect(calls.find((call) => call.path === '/api/db/config_items')?.search).toContain('type=in.(');
    expect(isDisabled(runButton())).toBe(false);
  });

  it('runs on the resource it was opened for, without a picker', async () => {
    const user = userEvent.setup();
    respond = (call) => (call.path === '/api/playbook/run' ? { status: 201, body: { run_id: 'r2' } } : call.path === '/api/playbook/pb1/params' ? { body: { params: [] } } : undefined);
    open({ configs: [{ type: 'Kubernetes::Pod' }], actions: [] }, { kind: 'config', id: 'c7', name: 'api-pod' });
    const dialog = await screen.findByRole('dialog', { name: 'Run Restart pod' });
    await within(dialog).findByText('No parameters for this playbook.');
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    await user.click(runButton());
    await waitFor(() => expect(currentLocation()).toBe('/playbooks/runs/r2'));
    expect(calls.find((call) => call.path === '/api/playbook/run')?.body).toEqual({ id: 'pb1', config_id: 'c7', params: {} });
    expect(calls.find((call) => call.path === '/api/playbook/pb1/params')?.search).toBe('?config_id=c7');
  });
});
