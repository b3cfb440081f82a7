import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../platform/config';

function problems(env: Record<string, string>, flags: Record<string, string> = {}): string[] {
  try {
    loadConfig(env, flags);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('agent settings', () => {
  it('a plain console has no upstream', () => {
    expect(loadConfig({}).upstream).toBeUndefined();
  });

  it('reads flags over env, with defaults', () => {
    const config = loadConfig({ WATCHKEEPER_UPSTREAM: 'http://env.test', WATCHKEEPER_AGENT_NAME: 'env-name', WATCHKEEPER_UPSTREAM_TOKEN: 't1' }, { upstream: 'https://up.example.com/', agentName: 'edge-1' });
    expect(config.upstream).toEqual({ url: 'https://up.example.com', token: 't1', agentName: 'edge-1', heartbeatSeconds: 30, pushIntervalMs: 1000 });
    expect(loadConfig({ WATCHKEEPER_UPSTREAM: 'http://u', WATCHKEEPER_AGENT_NAME: 'a', WATCHKEEPER_UPSTREAM_TOKEN: 't', WATCHKEEPER_AGENT_HEARTBEAT_SECONDS: '5' }).upstream?.heartbeatSeconds).toBe(5);
  });

  it('names the missing or bad flag', () => {
    expect(problems({}, { upstream: 'http://up.test' })).toEqual([
      expect.stringContaining('--agent-name (WATCHKEEPER_AGENT_NAME) is required with --upstream'),
      expect.stringContaining('--token (WATCHKEEPER_UPSTREAM_TOKEN) or --token-file (WATCHKEEPER_UPSTREAM_TOKEN_FILE) is required'),
    ]);
    expect(problems({}, { upstream: 'ftp://x', agentName: 'Edge_1', upstreamToken: 't' })).toEqual([
      'WATCHKEEPER_UPSTREAM="ftp://x" is not an http:// or https:// URL'.replace('WATCHKEEPER_UPSTREAM', '--upstream'),
      expect.stringContaining('--agent-name="Edge_1" is not an agent name'),
    ]);
    expect(problems({ WATCHKEEPER_AGENT_NAME: 'a' })).toEqual([expect.stringContaining('WATCHKEEPER_AGENT_NAME is set but --upstream (WATCHKEEPER_UPSTREAM) is not')]);
    expect(problems({ WATCHKEEPER_UPSTREAM: 'http://u', WATCHKEEPER_AGENT_NAME: 'a', WATCHKEEPER_UPSTREAM_TOKEN: 't', WATCHKEEPER_AGENT_HEARTBEAT_SECONDS: '0' })).toEqual([
      'WATCHKEEPER_AGENT_HEARTBEAT_SECONDS="0" is not a number of seconds (1-3600)',
    ]);
  });

  it('a token file must be readable and not empty', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-agent-config-'));
    try {
      const file = path.join(dir, 'token');
      expect(problems({}, { upstream: 'http://u', agentName: 'a', upstreamTokenFile: file })).toEqual([expect.stringContaining(`--token-file=${JSON.stringify(file)} cannot be read`)]);
      fs.writeFileSync(file, '\n');
      expect(problems({}, { upstream: 'http://u', agentName: 'a', upstreamTokenFile: file })).toEqual([`--token-file=${JSON.stringify(file)}: the file is empty`]);
      fs.writeFileSync(file, 'secret\n');
      expect(loadConfig({}, { upstream: 'http://u', agentName: 'a', upstreamTokenFile: file }).upstream).toMatchObject({ tokenFile: file });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
