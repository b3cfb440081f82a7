import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/platform/db/embedded';
import { runCli, startServe, tempDataDir, waitUntil, type ServeProcess } from './cli';

/**
 * Issue 23 as a user runs it: two `watchkeeper serve` processes, each on its own embedded database — the
 * upstream, and an agent started with --upstream/--token/--agent-name and a resources folder holding a
 * canary. The agent runs the canary; its checks and results arrive upstream, owned by the agent. The
 * upstream is stopped while the agent goes on, then started again: every result made meanwhile arrives,
 * once.
 */

const running: ServeProcess[] = [];
let peer: http.Server | undefined;

afterAll(async () => {
  for (const server of running) await server.stop().catch(() => undefined);
  peer?.close();
});

function adminToken(dir: string): string {
  const admin = runCli(['admin', 'create', '--email', 'root@example.com'], { WATCHKEEPER_DATA: dir });
  expect(admin.status, admin.stderr).toBe(0);
  const token = runCli(['token', 'create', '--user', 'root@example.com', '--name', 'test', '--scope', 'admin'], { WATCHKEEPER_DATA: dir });
  expect(token.status, token.stderr).toBe(0);
  return token.stdout.trim();
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('serve --upstream (an agent process and an upstream process)', () => {
  it('runs a canary on the agent, pushes its checks and results upstream as the agent’s, and loses nothing while upstream is down', async () => {
    peer = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => peer?.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/health`;

    const upstreamDir = await tempDataDir();
    const upstreamPort = await freePort();
    let upstream = await startServe({ WATCHKEEPER_DATA: upstreamDir }, upstreamPort);
    running.push(upstream);
    const upToken = adminToken(upstreamDir);
    const generated = await fetch(`${upstream.url}/api/agent/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${upToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'edge-1' }),
    });
    expect(generated.status).toBe(200);
    const agentInfo = (await generated.json()) as { id: string; access_token: string; command: string };
    expect(agentInfo.command).toContain('--agent-name edge-1');

    const agentDir = await tempDataDir();
    const resources = path.join(agentDir, 'resources');
    await fs.mkdir(resources);
    await fs.writeFile(
      path.join(resources, 'canary.yaml'),
      ['apiVersion: canaries.flanksource.com/v1', 'kind: Canary', 'metadata:', '  name: edge-web', 'spec:', '  interval: 1', '  http:', '    - name: edge web', `      url: ${target}`, ''].join('\n'),
    );
    const agent = await startServe(
      {
        WATCHKEEPER_DATA: agentDir,
        WATCHKEEPER_RESOURCES: resources,
        WATCHKEEPER_UPSTREAM: upstream.url,
        WATCHKEEPER_UPSTREAM_TOKEN: agentInfo.access_token,
        WATCHKEEPER_AGENT_NAME: 'edge-1',
        WATCHKEEPER_AGENT_HEARTBEAT_SECONDS: '2',
      },
      await freePort(),
    );
    running.push(agent);
    const agentToken = adminToken(agentDir);

    // The check and its results arrive upstream, owned by edge-1.
    type Check = { id: string; name: string; agent_id: string };
    let checks: Check[] = [];
    const arrived = await waitUntil(async () => {
      checks = await getJson<Check[]>(`${upstream.url}/api/db/checks?select=id,name,agent_id&name=eq.edge%20web`, upToken);
      return checks.length === 1;
    }, 30_000);
    expect(arrived, agent.output()).toBe(true);
    expect(checks[0]?.agent_id).toBe(agentInfo.id);
    const checkId = checks[0]?.id ?? '';
    const statusesUp = () => getJson<Array<{ time: string }>>(`${upstream.url}/api/db/check_statuses?select=time&check_id=eq.${checkId}`, upToken);
    expect(await waitUntil(async () => (await statusesUp()).length >= 2, 30_000)).toBe(true);
    const summary = await getJson<Array<{ name: string; health: string; checks: number }>>(`${upstream.url}/api/db/agents_summary?select=name,health,checks&id=eq.${agentInfo.id}`, upToken);
    expect(summary[0]).toMatchObject({ name: 'edge-1', health: 'online', checks: 1 });

    // Upstream down: the agent keeps running the canary and buffers its results.
    await upstream.stop();
    const downSince = Date.now();
    expect(
      await waitUntil(async () => {
        const status = await getJson<{ queue_depth: number; last_error: string | null }>(`${agent.url}/api/agent/status`, agentToken);
        return status.queue_depth > 0 && Date.now() - downSince > 4000;
      }, 30_000),
    ).toBe(true);
    upstream = await startServe({ WATCHKEEPER_DATA: upstreamDir }, upstreamPort);
    running.push(upstream);
    const restartedAt = new Date();

    // Every result the agent made before the restart arrives, once (check_statuses' key is (check_id, time)).
    const local = (await getJson<Array<{ time: string }>>(`${agent.url}/api/db/check_statuses?select=time&check_id=eq.${checkId}`, agentToken))
      .map((row) => new Date(row.time).getTime())
      .filter((time) => time < restartedAt.getTime());
    expect(local.length).toBeGreaterThanOrEqual(6);
    let missing: number[] = local;
    expect(
      await waitUntil(async () => {
        const have = new Set((await statusesUp()).map((row) => new Date(row.time).getTime()));
        missing = local.filter((time) => !have.has(time));
        return missing.length === 0;
      }, 40_000),
      `${missing.length} results never arrived`,
    ).toBe(true);
  }, 240_000);
});
