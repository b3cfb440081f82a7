import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Feature, AppContext } from '../../platform/context';
import { buildMcpServer } from './server';

/** JSON-RPC error body (the transport's own shape for errors outside a request). */
function rpcError(code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

const CHALLENGE = 'Bearer realm="watchkeeper", Basic realm="watchkeeper"';

async function handle(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const actor = req.actor;
  if (!actor?.token) {
    reply.header('www-authenticate', CHALLENGE);
    return reply.status(401).send(rpcError(-32001, 'send an API token: Authorization: Bearer <token>, or Basic auth with user "token" and the token as password'));
  }
  if (!actor.token.scopes.some((scope) => scope.object === 'mcp' && scope.action === '*')) {
    return reply.status(403).send(rpcError(-32003, 'this token lacks the mcp scope (object mcp, action *)'));
  }
  if (req.method !== 'POST') {
    reply.header('allow', 'POST');
    return reply.status(405).send(rpcError(-32000, 'method not allowed: this MCP server is stateless, send POST'));
  }
  let body: unknown;
  try {
    body = typeof req.body === 'string' ? JSON.parse(req.body) : req.body;
  } catch {
    return reply.status(400).send(rpcError(-32700, 'parse error: the body is not JSON'));
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  // Clients such as curl or the console send only application/json; the transport wants both.
  headers.set('accept', 'application/json, text/event-stream');
  headers.set('content-type', 'application/json');
  const request = new Request(`http://localhost${req.url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const server = buildMcpServer(ctx, actor, req.log);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    const text = await response.text();
    return reply.send(text === '' ? undefined : text);
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

async function mcpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    // The body is parsed here so that malformed JSON answers a JSON-RPC parse error, not the API's 400.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1_048_576 }, (_req, body, done) => done(null, body));
    for (const url of ['/api/mcp', '/mcp']) {
      scope.route({
        method: ['POST', 'GET', 'DELETE'],
        url,
        config: {
          access: 'self-checked',
          doc: { method: 'POST', url, summary: 'Model Context Protocol server (streamable HTTP, stateless, JSON answers); API token with the mcp scope', access: 'self-checked', tags: ['mcp'] },
        },
        handler: (req, reply) => handle(ctx, req, reply),
      });
    }
  });
}

/**
 * MCP (issue 24, spec §7 Other: POST {base}/mcp): a Model Context Protocol server for AI assistants on
 * the official SDK. Every tool runs with the calling token's permissions intersected with its owner's
 * (docs/MCP.md).
 */
export const mcpFeature: Feature = {
  name: 'mcp',
  async register(app, ctx) {
    await mcpRoutes(app, ctx);
  },
};
