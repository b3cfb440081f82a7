import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { INITIALIZE_REQUEST, mcpEndpoint, mcpSnippets, shellQuote } from './mcp-snippets';

const ORIGIN = 'https://wk.example.com';
const TOKEN = 'wk_abc123';

const snippet = (id: string, token = TOKEN) => {
  const found = mcpSnippets(ORIGIN, token).find((item) => item.id === id);
  if (!found) throw new Error(`no snippet ${id}`);
  return found.text;
};

/** The words a shell makes of a command line, the command itself dropped. */
function shellWords(command: string): string[] {
  const result = spawnSync('bash', ['-c', `set -- ${command.replace(/^\S+/, '')}; printf '%s\\0' "$@"`], { encoding: 'utf8' });
  expect(result.status).toBe(0);
  return result.stdout.split('\0').slice(0, -1);
}

describe('MCP setup snippets', () => {
  it('points at {origin}/api/mcp, whatever the trailing slashes', () => {
    expect(mcpEndpoint(ORIGIN)).toBe('https://wk.example.com/api/mcp');
    expect(mcpEndpoint('http://localhost:3000//')).toBe('http://localhost:3000/api/mcp');
    expect(snippet('endpoint')).toBe('https://wk.example.com/api/mcp');
    expect(snippet('header')).toBe('Authorization: Bearer wk_abc123');
  });

  it('writes each client configuration in its own shape', () => {
    const headers = { Authorization: 'Bearer wk_abc123' };
    const url = 'https://wk.example.com/api/mcp';
    expect(JSON.parse(snippet('claude'))).toEqual({ mcpServers: { watchkeeper: { type: 'http', url, headers } } });
    expect(JSON.parse(snippet('vscode'))).toEqual({ servers: { watchkeeper: { type: 'http', url, headers } } });
    expect(JSON.parse(snippet('cursor'))).toEqual({ mcpServers: { watchkeeper: { url, headers } } });
    expect(mcpSnippets(ORIGIN, TOKEN).map((item) => item.label)).toEqual([
      'Endpoint',
      'Header',
      'Claude Desktop / Claude Code',
      'Claude Code (command line)',
      'VS Code',
      'Cursor',
      'curl',
    ]);
  });

  it('builds a curl initialize line a shell reads back word for word', () => {
    expect(shellWords(snippet('curl'))).toEqual([
      '-sS',
      '-X',
      'POST',
      'https://wk.example.com/api/mcp',
      '-H',
      'Authorization: Bearer wk_abc123',
      '-H',
      'Content-Type: application/json',
      '-H',
      'Accept: application/json, text/event-stream',
      '-d',
      JSON.stringify(INITIALIZE_REQUEST),
    ]);
    expect(JSON.parse(JSON.stringify(INITIALIZE_REQUEST))).toMatchObject({ method: 'initialize', params: { protocolVersion: '2024-11-05' } });
    expect(shellWords(snippet('claude-code'))).toEqual(['mcp', 'add', '--transport', 'http', 'watchkeeper', 'https://wk.example.com/api/mcp', '--header', 'Authorization: Bearer wk_abc123']);
  });

  it('quotes anything a shell would otherwise expand or split', () => {
    const odd = `it's $HOME; \`x\``;
    expect(shellWords(`x ${shellQuote(odd)}`)).toEqual([odd]);
    expect(shellWords(snippet('curl', odd))).toContain(`Authorization: Bearer ${odd}`);
  });
});
