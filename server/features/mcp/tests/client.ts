import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TokenScope } from '../../../../common/rbac';
import type { TestApp } from '../../../../test/app';
import { createAccessToken } from '../../identity';

/**
 * The MCP client of the integration tests: a real Streamable HTTP client of the SDK against the test app
 * listening on loopback (`base`, from TestApp.listen()).
 */

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A person with `roles` and an access token of theirs with `scopes`. */
export async function tokenFor(t: TestApp, roles: Parameters<TestApp['userWith']>[0], scopes: TokenScope[]): Promise<{ id: string; token: string }> {
  const user = await t.userWith(roles);
  const { token } = await createAccessToken(t.db.pool, { personId: user.id, name: 'mcp test', scopes, expiresAt: null, createdBy: user.id });
  return { id: user.id, token };
}

/** A connected client; `auth` is a bearer token or the headers to send; `protocolVersion` pins the version. */
export async function connect(base: string, auth: string | Record<string, string>, protocolVersion?: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const headers = typeof auth === 'string' ? bearer(auth) : auth;
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers } });
  if (protocolVersion) transport.setProtocolVersion(protocolVersion);
  await client.connect(transport);
  return client;
}

/** A tool's answer: its first text, and that text parsed as JSON (undefined when it is not: a failed tool answers text). */
export interface ToolAnswer<Json> {
  isError: boolean;
  text: string;
  json: Json;
}

/** Calls a tool; `Json` names the fields of the answer the caller reads. */
export async function callTool<Json>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer<Json>> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text ?? '';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, text, json: json as Json };
}
