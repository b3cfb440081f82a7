// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '@web/app/providers';
import { testQueryClient } from '@web/app/test-utils';
import { CREATE_BLOCKED, CreateTokenDialog } from './create-token-dialog';

// Each test clicks through several Radix selects: seconds on a loaded machine, over the 5 s default.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => {
  // Radix Select uses pointer capture and scrolls its list; jsdom has neither.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
  // Radix measures its radios and popovers.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const isDisabled = (element: HTMLElement) => element.hasAttribute('disabled');
const isChecked = (element: HTMLElement) => element.getAttribute('aria-checked') === 'true';

interface Call {
  path: string;
  body: unknown;
}
let calls: Call[] = [];
let reply: () => Response | Promise<Response>;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  calls = [];
  reply = () =>
    json({ message: 'success', payload: { id: 't1', name: 'ci', token: 'wk_secret_token_value', expires_at: null, scopes: [{ object: 'mcp', action: '*' }] } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ path: new URL(String(input), 'http://localhost').pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return reply();
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderDialog(mode: 'default' | 'mcp' = 'default') {
  const onClose = vi.fn();
  render(
    <Providers queryClient={testQueryClient()} sessionSource={undefined}>
      <CreateTokenDialog mode={mode} onClose={onClose} />
    </Providers>,
  );
  return { onClose, user: userEvent.setup() };
}

const combobox = (name: string) => screen.getByRole('combobox', { name });

async function chooseLevel(user: ReturnType<typeof userEvent.setup>, object: string, level: string) {
  await user.click(combobox(object));
  await user.click(await screen.findByRole('option', { name: level }));
}

describe('Create new token dialog', () => {
  it('requires a name, starts on Read and submits the scopes of the chosen preset', async () => {
    const { user } = renderDialog();
    const submit = screen.getByRole('button', { name: 'Create Token' });
    expect(isDisabled(submit)).toBe(true);
    expect(isChecked(screen.getByRole('radio', { name: /^Read/ }))).toBe(true);
    expect(combobox('Canaries').textContent).toContain('Read');

    await user.click(screen.getByLabelText('Name'));
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Name'), '   ');
    expect(isDisabled(submit)).toBe(true);
    await user.type(screen.getByLabelText('Name'), ' ci ');
    await waitFor(() => expect(isDisabled(submit)).toBe(false));
    expect(screen.queryByText('Name is required')).toBeNull();

    await user.click(screen.getByRole('radio', { name: /^Write/ }));
    expect(combobox('Canaries').textContent).toContain('Write');
    // Write's read+create on playbooks is no playbook level; Admin's every action reads as such.
    expect(combobox('Playbooks').textContent).toContain('Mixed');
    await user.click(screen.getByRole('radio', { name: /^Admin/ }));
    expect(combobox('Playbooks').textContent).toContain('All actions');
    await user.click(screen.getByRole('radio', { name: /^Write/ }));
    await user.click(submit);

    await screen.findByRole('dialog', { name: 'Token Created Successfully' });
    const body = calls.find((call) => call.path === '/api/auth/create_token')?.body;
    expect(body).toMatchObject({ name: 'ci', expiry: 'never' });
    expect(JSON.stringify(body)).toContain('"object":"canaries","action":"create"');
    expect(JSON.stringify(body)).not.toContain('"action":"update"');
    expect(await screen.findByText('Token created successfully')).toBeTruthy();
  });

  it('switches to Custom when a level changes, and needs some scope', async () => {
    const { user } = renderDialog();
    await user.type(screen.getByLabelText('Name'), 'narrow');
    await chooseLevel(user, 'Playbooks', 'Approve');
    expect(isChecked(screen.getByRole('radio', { name: /^Custom/ }))).toBe(true);
    expect(screen.getByText('read, run, approve')).toBeTruthy();

    // Choosing Custom itself resets every flag: nothing is granted, so nothing can be submitted.
    await user.click(screen.getByRole('radio', { name: /^Read/ }));
    await user.click(screen.getByRole('radio', { name: /^Custom/ }));
    expect(await screen.findByText('Choose at least one scope')).toBeTruthy();
    expect(isDisabled(screen.getByRole('button', { name: 'Create Token' }))).toBe(true);
    await chooseLevel(user, 'Catalog', 'Admin');
    await waitFor(() => expect(isDisabled(screen.getByRole('button', { name: 'Create Token' }))).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Create Token' }));
    await screen.findByRole('dialog', { name: 'Token Created Successfully' });
    expect(calls[0]?.body).toEqual({
      name: 'narrow',
      expiry: 'never',
      scope: ['read', 'create', 'update', 'delete'].map((action) => ({ subject: '', object: 'catalog', action })),
    });
  });

  it('in MCP mode starts on Custom with only MCP on, needs the MCP scope, and shows the client configuration', async () => {
    const writeText = vi.fn(async () => undefined);
    const { user, onClose } = renderDialog('mcp');
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    screen.getByRole('dialog', { name: 'Setup MCP' });
    expect(isChecked(screen.getByRole('radio', { name: /^Custom/ }))).toBe(true);
    expect(isChecked(screen.getByRole('radio', { name: /^Read/ }))).toBe(false);
    expect(combobox('MCP').textContent).toContain('Admin');
    for (const object of ['Canaries', 'Catalog', 'Applications', 'Playbooks', 'Notifications']) expect(combobox(object).textContent).toContain('None');
    expect(screen.getByText(/With only MCP on, an assistant using this token acts through MCP with your own permissions/)).toBeTruthy();

    // Without mcp:* the token would be refused at the MCP endpoint: said, and not submittable.
    await chooseLevel(user, 'MCP', 'None');
    expect(await screen.findByText('Choose at least one scope')).toBeTruthy();
    await chooseLevel(user, 'Catalog', 'Read');
    expect(await screen.findByText('An MCP token needs the MCP scope: set MCP to Admin')).toBeTruthy();
    expect(isDisabled(screen.getByRole('button', { name: 'Create Token' }))).toBe(true);
    await chooseLevel(user, 'MCP', 'Admin');
    await waitFor(() => expect(isDisabled(screen.getByRole('button', { name: 'Create Token' }))).toBe(false));
    expect(screen.queryByText('An MCP token needs the MCP scope: set MCP to Admin')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create Token' }));

    const setup = await screen.findByRole('dialog', { name: 'Connect an MCP client' });
    const body = calls.find((call) => call.path === '/api/auth/create_token')?.body as { name: string; scope: unknown[] };
    expect(body.name).toBe('mcp-client');
    expect(body.scope).toEqual([
      { subject: '', object: 'mcp', action: '*' },
      { subject: '', object: 'catalog', action: 'read' },
    ]);
    expect(within(setup).getByText(/cannot be seen again/)).toBeTruthy();
    const endpoint = `${window.location.origin}/api/mcp`;
    expect(within(setup).getByTestId('mcp-snippet-endpoint').textContent).toBe(endpoint);
    expect(JSON.parse(within(setup).getByTestId('mcp-snippet-vscode').textContent ?? '')).toEqual({
      servers: { watchkeeper: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer wk_secret_token_value' } } },
    });
    await user.click(within(setup).getByRole('button', { name: 'Copy Cursor' }));
    expect(JSON.parse(String((writeText.mock.calls as unknown as string[][])[0]?.[0]))).toEqual({
      mcpServers: { watchkeeper: { url: endpoint, headers: { Authorization: 'Bearer wk_secret_token_value' } } },
    });
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    await user.click(within(setup).getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the token once: masked, revealed on demand, copied', async () => {
    const writeText = vi.fn(async () => undefined);
    const { user, onClose } = renderDialog();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.type(screen.getByLabelText('Name'), 'ci');
    await user.click(screen.getByRole('button', { name: 'Create Token' }));
    const done = await screen.findByRole('dialog', { name: 'Token Created Successfully' });
    expect(within(done).getByText(/cannot be seen again/)).toBeTruthy();
    const shown = within(done).getByTestId('created-token');
    expect(shown.textContent).not.toContain('wk_secret');
    await user.click(within(done).getByRole('button', { name: 'Reveal token' }));
    expect(shown.textContent).toBe('wk_secret_token_value');
    await user.click(within(done).getByRole('button', { name: 'Copy token' }));
    expect(writeText).toHaveBeenCalledWith('wk_secret_token_value');
    expect(await screen.findByText('Token copied to clipboard')).toBeTruthy();
    await user.click(within(done).getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('says so when the clipboard is missing or refuses', async () => {
    const { user } = renderDialog();
    // After setup(): user-event installs a clipboard of its own.
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    await user.type(screen.getByLabelText('Name'), 'ci');
    await user.click(screen.getByRole('button', { name: 'Create Token' }));
    await user.click(await screen.findByRole('button', { name: 'Copy token' }));
    expect(await screen.findByText('Clipboard not available')).toBeTruthy();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(await screen.findByText('Failed to copy to clipboard')).toBeTruthy();
  });

  it('reads Creating... and stays disabled while the call runs', async () => {
    let answer: (response: Response) => void = () => undefined;
    reply = () => new Promise<Response>((resolve) => (answer = resolve));
    const { user } = renderDialog();
    await user.type(screen.getByLabelText('Name'), 'slow');
    await user.click(screen.getByRole('button', { name: 'Create Token' }));
    const busy = await screen.findByRole('button', { name: 'Creating...' });
    expect(isDisabled(busy)).toBe(true);
    answer(json({ message: 'success', payload: { id: 't2', name: 'slow', token: 'wk_x', expires_at: null, scopes: [] } }));
    await screen.findByRole('dialog', { name: 'Token Created Successfully' });
  });

  it('toasts the server message when creation fails and keeps the form', async () => {
    reply = () => json({ error: 'invalid_request', message: 'name: Name is required' }, 400);
    const { user } = renderDialog();
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByText('name: Name is required')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create new token' })).toBeTruthy();
    expect(isDisabled(screen.getByRole('button', { name: 'Create Token' }))).toBe(false);
  });

  // Issue 38 item 5: an answer without an error message (an empty 500) reads as spec §8 says.
  it("toasts 'Failed to create token' when the server answers an error without a message", async () => {
    reply = () => new Response('', { status: 500, statusText: 'Internal Server Error' });
    const { user } = renderDialog();
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByText('Failed to create token')).toBeTruthy();
    expect(screen.queryByText(/Internal Server Error/)).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Create new token' })).toBeTruthy();
  });

  it('marks Name required and says beside a disabled Create what is missing', async () => {
    const { user } = renderDialog();
    const name = screen.getByLabelText('Name');
    expect(name.hasAttribute('required')).toBe(true);
    expect(name.parentElement?.querySelector('[aria-hidden="true"]')?.textContent).toBe('*');
    const submit = screen.getByRole('button', { name: 'Create Token' });
    expect(isDisabled(submit)).toBe(true);
    // Before anything was touched: the reason is there, and it describes the button.
    const reason = screen.getByText(CREATE_BLOCKED.name);
    expect(submit.getAttribute('aria-describedby')).toBe(reason.id);
    await user.type(name, 'ci');
    await waitFor(() => expect(isDisabled(submit)).toBe(false));
    expect(screen.queryByText(CREATE_BLOCKED.name)).toBeNull();
    expect(submit.getAttribute('aria-describedby')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    expect(await screen.findByText(CREATE_BLOCKED.scope)).toBeTruthy();
    expect(isDisabled(submit)).toBe(true);
  });

  it('describes each preset on a line of its own, and says what MCP grants instead of a lone *', () => {
    renderDialog('mcp');
    // The description is not part of the option's name: it describes it.
    const read = screen.getByRole('radio', { name: 'Read' });
    const hint = document.getElementById(read.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Read everything, and use MCP.');
    expect(hint?.className).not.toContain('font-mono');
    expect(screen.getByText('use the MCP endpoint')).toBeTruthy();
    expect(screen.queryByText('*', { selector: 'p' })).toBeNull();
  });
});
