import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Feature, AppContext } from '../../platform/context';
import { buildMcpServer, mcpActor } from './server';

/** JSON-RPC error body (the transport's own shape for errors outside a request). */
function rpcError(code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** Bodies up to 1 MB (MiB); larger ones answer 413 with a JSON-RPC error. */
const BODY_LIMIT = 1_048_576;

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
  if (body === undefined) return reply.status(400).send(rpcError(-32700, 'parse error: send a JSON-RPC message as the body (Content-Type: application/json)'));
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  // Clients such as curl or the console send only application/json; the transport wants both.
  headers.set('accept', 'application/json, text/event-stream');
  headers.set('content-type', 'application/json');
  const request = new Request(`http://localhost${req.url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const server = await buildMcpServer(ctx, mcpActor(actor), req.log);
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
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    // Errors before the handler (a body over the limit, another content type) answer JSON-RPC too, never Fastify's body.
    scope.setErrorHandler((error: FastifyError, req, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 413) return reply.status(413).send(rpcError(-32600, 'invalid request: the body exceeds the 1 MB limit (1,048,576 bytes)'));
      if (status === 415) return reply.status(415).send(rpcError(-32600, 'invalid request: send the body as Content-Type: application/json'));
      if (status < 500) return reply.status(status).send(rpcError(-32600, `invalid request: ${error.message}`));
      req.log.error({ err: error }, 'mcp request failed');
      return reply.status(500).send(rpcError(-32603, 'internal error: the server log has the details'));
    });
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
 * the official SDK. Every tool runs with the calling token's permissions intersected with its owner's;
 * a token with only the mcp scope acts as its owner (mcpActor, docs/MCP.md).
 */
export const mcpFeature: Feature = {
  name: 'mcp',
  async register(app, ctx) {
    await mcpRoutes(app, ctx);
  },
};
