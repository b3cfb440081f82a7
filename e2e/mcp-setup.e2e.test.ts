import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ADMIN, useJourney } from './harness';

describe('Setup MCP', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;

  it('creates an MCP token from the user menu and shows ready-to-paste client configuration', async () => {
    const server = journey.server();
    const page = journey.page();
    await journey.browser().context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(url('/health'));
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Setup MCP' }).click();
    await page.waitForURL(/\/settings\/tokens\?dialog=mcp$/);

    const form = page.getByRole('dialog', { name: 'Setup MCP' });
    expect(await form.getByLabel('Name').inputValue()).toBe('mcp-client');
    // Spec §4: MCP setup starts on Custom with only the mcp scope on.
    expect(await form.getByRole('radio', { name: /^Custom/ }).getAttribute('aria-checked')).toBe('true');
    expect(await form.getByRole('combobox', { name: 'MCP' }).textContent()).toContain('Admin');
    for (const object of ['Canaries', 'Catalog', 'Applications', 'Playbooks', 'Notifications']) expect(await form.getByRole('combobox', { name: object }).textContent()).toContain('None');
    await form.getByLabel('Name').fill('e2e-mcp');
    await form.getByRole('button', { name: 'Create Token' }).click();
    await page.getByText('Token created successfully', { exact: true }).waitFor();

    const setup = page.getByRole('dialog', { name: 'Connect an MCP client' });
    await setup.getByText(/cannot be seen again/).waitFor();
    const endpoint = `${server.url}/api/mcp`;
    expect(await setup.getByTestId('mcp-snippet-endpoint').textContent()).toBe(endpoint);
    const claude = JSON.parse((await setup.getByTestId('mcp-snippet-claude').textContent()) ?? '') as { mcpServers: { watchkeeper: { type: string; url: string; headers: { Authorization: string } } } };
    expect(claude.mcpServers.watchkeeper).toMatchObject({ type: 'http', url: endpoint });
    const authorization = claude.mcpServers.watchkeeper.headers.Authorization;
    expect(authorization).toMatch(/^Bearer \S{20,}$/);
    const token = authorization.slice('Bearer '.length);
    expect(await setup.getByTestId('mcp-snippet-header').textContent()).toBe(`Authorization: ${authorization}`);
    const curl = (await setup.getByTestId('mcp-snippet-curl').textContent()) ?? '';
    expect(curl).toContain(`'${endpoint}'`);
    expect(curl).toContain(`'Authorization: Bearer ${token}'`);
    expect(curl).toContain(`'Accept: application/json, text/event-stream'`);

    await setup.getByRole('button', { name: 'Copy VS Code' }).click();
    await page.getByText('Copied to clipboard').first().waitFor();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({
      servers: { watchkeeper: { type: 'http', url: endpoint, headers: { Authorization: authorization } } },
    });

    // The token is a real one, with mcp:* only, owned by the admin.
    const whoami = await fetch(url('/api/auth/whoami'), { headers: { authorization } });
    expect(whoami.status).toBe(200);
    const identity = (await whoami.json()) as { user: { email: string }; token: { scopes: unknown[] } };
    expect(identity.user.email).toBe(ADMIN.email);
    expect(identity.token.scopes).toEqual([{ object: 'mcp', action: '*' }]);

    // The curl line of the dialog, run as a person would paste it: the MCP server answers initialize.
    const ran = spawnSync('bash', ['-c', curl], { encoding: 'utf8', timeout: 20_000 });
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    // Streamable HTTP answers JSON or one server-sent event carrying it.
    const body = ran.stdout.trimStart().startsWith('{') ? ran.stdout : ran.stdout.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).join('');
    const answer = JSON.parse(body) as { jsonrpc: string; id: number; result: { protocolVersion: string; serverInfo: { name: string; version: string } } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2024-11-05', serverInfo: { name: expect.any(String), version: expect.any(String) } } });
    // Basic authentication with the user 'token' works too (spec §7); no token is refused.
    const init = (headers: Record<string, string>) =>
      fetch(endpoint, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: curl.slice(curl.indexOf("-d '") + 4, -1) });
    expect((await init({ authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` })).status).toBe(200);
    expect((await init({})).status).toBe(401);

    // The mcp-only token lists the tools over HTTP, as a client does after initialize.
    const listed = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(listed.status).toBe(200);
    const listText = await listed.text();
    const listBody = listText.trimStart().startsWith('{') ? listText : listText.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).join('');
    const tools = (JSON.parse(listBody) as { result: { tools: { name: string; inputSchema: { type: string } }[] } }).result.tools;
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool).toMatchObject({ name: expect.stringMatching(/^[a-z][a-z0-9_-]*$/i), inputSchema: { type: 'object' } });
    // With only mcp:*, the token acts with its owner's (the admin's) permissions through MCP: a read tool answers.
    const called = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_incidents', arguments: {} } }),
    });
    expect(called.status).toBe(200);
    const callText = await called.text();
    const callBody = callText.trimStart().startsWith('{') ? callText : callText.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).join('');
    const result = (JSON.parse(callBody) as { result: { isError?: boolean; content: { type: string; text: string }[] } }).result;
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    expect(result.content[0]?.type).toBe('text');

    await setup.getByRole('button', { name: 'Done' }).click();
    await setup.waitFor({ state: 'detached' });
    await page.waitForURL(/\/settings\/tokens$/);
    await page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: /e2e-mcp/ }).waitFor();
  });
});
