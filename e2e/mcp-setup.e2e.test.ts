import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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
    expect(await form.getByRole('radio', { name: /^Read/ }).getAttribute('aria-checked')).toBe('true');
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

    // The token is a real one, with mcp:* and read on every object, owned by the admin.
    const whoami = await fetch(url('/api/auth/whoami'), { headers: { authorization } });
    expect(whoami.status).toBe(200);
    const identity = (await whoami.json()) as { user: { email: string }; token: { scopes: unknown[] } };
    expect(identity.user.email).toBe(ADMIN.email);
    expect(identity.token.scopes).toEqual(expect.arrayContaining([{ object: 'mcp', action: '*' }, { object: 'catalog', action: 'read' }]));
    expect(identity.token.scopes).not.toContainEqual({ object: 'catalog', action: 'create' });

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

    await setup.getByRole('button', { name: 'Done' }).click();
    await setup.waitFor({ state: 'detached' });
    await page.waitForURL(/\/settings\/tokens$/);
    await page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: /e2e-mcp/ }).waitFor();
  });

  it('downloads a kubeconfig from the user menu whose token the Kubernetes-style API accepts', async () => {
    const page = journey.page();
    await page.goto(url('/health'));
    await page.getByRole('button', { name: 'User menu' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download kubeconfig' }).click()]);
    expect(download.suggestedFilename()).toBe('watchkeeper.kubeconfig');
    await page.getByText('Saved watchkeeper.kubeconfig. Use it: export KUBECONFIG=~/Downloads/watchkeeper.kubeconfig; kubectl get canaries -A').waitFor();
    const file = await download.path();
    const config = parse(await fs.readFile(file, 'utf8')) as { clusters: { cluster: { server: string } }[]; users: { user: { token: string } }[] };
    expect(config.clusters[0]?.cluster.server).toBe(url('/api/kubernetes'));
    const whoami = await fetch(url('/api/auth/whoami'), { headers: { authorization: `Bearer ${config.users[0]?.user.token ?? ''}` } });
    expect(((await whoami.json()) as { user: { email: string } }).user.email).toBe(ADMIN.email);

    // kubectl sends a token only over https (docs/KUBECTL.md) and this server is plain http: the list
    // kubectl would make, with the file's token, answered by the Kubernetes-style API.
    const list = await fetch(`${config.clusters[0]?.cluster.server ?? ''}/apis/canaries.flanksource.com/v1/canaries`, { headers: { authorization: `Bearer ${config.users[0]?.user.token ?? ''}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ kind: 'CanaryList', items: [] });
  });
});
