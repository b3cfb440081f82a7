/** The server name the snippets register Watchkeeper under in each client's configuration. */
export const MCP_SERVER_NAME = 'watchkeeper';

/** Spec §7: the MCP endpoint is POST {base}/mcp; the console's base is /api. */
export function mcpEndpoint(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/api/mcp`;
}

/** The JSON-RPC initialize request of spec §7 (protocol version 2024-11-05). */
export const INITIALIZE_REQUEST = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
} as const;

/** The streamable HTTP transport answers JSON or an event stream; a client must accept both. */
export const MCP_ACCEPT = 'application/json, text/event-stream';

export interface McpSnippet {
  id: 'endpoint' | 'header' | 'claude' | 'claude-code' | 'vscode' | 'cursor' | 'curl';
  /** What the snippet is, as its heading reads. */
  label: string;
  /** Where it goes. */
  hint: string;
  text: string;
}

/** A POSIX shell single-quoted word: safe for any token or address. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Ready-to-paste configuration for the common MCP clients, each with the token in its Authorization header. */
export function mcpSnippets(origin: string, token: string): McpSnippet[] {
  const url = mcpEndpoint(origin);
  const authorization = `Bearer ${token}`;
  const headers = { Authorization: authorization };
  return [
    { id: 'endpoint', label: 'Endpoint', hint: 'The MCP server URL (streamable HTTP).', text: url },
    { id: 'header', label: 'Header', hint: 'Sent with every request.', text: `Authorization: ${authorization}` },
    {
      id: 'claude',
      label: 'Claude Desktop / Claude Code',
      hint: 'claude_desktop_config.json, or .mcp.json in a project.',
      text: json({ mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url, headers } } }),
    },
    {
      id: 'claude-code',
      label: 'Claude Code (command line)',
      hint: 'Run once in a terminal.',
      text: `claude mcp add --transport http ${MCP_SERVER_NAME} ${shellQuote(url)} --header ${shellQuote(`Authorization: ${authorization}`)}`,
    },
    { id: 'vscode', label: 'VS Code', hint: '.vscode/mcp.json', text: json({ servers: { [MCP_SERVER_NAME]: { type: 'http', url, headers } } }) },
    { id: 'cursor', label: 'Cursor', hint: '~/.cursor/mcp.json, or .cursor/mcp.json in a project.', text: json({ mcpServers: { [MCP_SERVER_NAME]: { url, headers } } }) },
    {
      id: 'curl',
      label: 'curl',
      hint: 'Checks the token: the answer names the server.',
      text: [
        `curl -sS -X POST ${shellQuote(url)}`,
        `-H ${shellQuote(`Authorization: ${authorization}`)}`,
        `-H 'Content-Type: application/json'`,
        `-H ${shellQuote(`Accept: ${MCP_ACCEPT}`)}`,
        `-d ${shellQuote(JSON.stringify(INITIALIZE_REQUEST))}`,
      ].join(' \\\n  '),
    },
  ];
}
