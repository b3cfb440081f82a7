import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { presetScopes, type Action, type Resource } from '../../../common/rbac';
import { decide } from '../../platform/auth/decide';
import type { Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/http/errors';
import { dynamicTools } from './dynamic';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { tools } from './tools';

/** Drops nulls, undefined and empty arrays/objects, so answers stay compact. */
export function compact(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(compact);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === null || item === undefined) continue;
      const next = compact(item);
      if (next && typeof next === 'object' && !Array.isArray(next) && Object.keys(next).length === 0) continue;
      out[key] = next;
    }
    return out;
  }
  return value;
}

function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Whether the caller may use a tool: the same decision as the REST routes (token scopes ∩ owner's roles and permissions). */
export function refusal(actor: Actor, needs: ReadonlyArray<{ resource: Resource; action: Action }>): string | undefined {
  for (const { resource, action } of needs) {
    const decision = decide(actor, resource, action);
    if (!decision.allowed) {
      const why = decision.reason.kind === 'token' ? 'the token’s scopes do not allow it' : decision.reason.kind === 'deny' ? 'a permission denies it' : 'no role or permission of the token’s owner allows it';
      return `forbidden: this tool needs the ${action} permission on ${resource} (${why})`;
    }
  }
  return undefined;
}

/**
 * Token semantics through MCP (spec §2/§4: a token made in MCP mode carries only the mcp scope): a token
 * whose only scopes are mcp scopes acts with its owner's permissions (as the Admin preset would, still
 * bounded by the owner's roles and permission rows); a token with object scopes too stays limited by them.
 */
export function mcpActor(actor: Actor): Actor {
  const token = actor.token;
  if (!token || token.scopes.length === 0 || !token.scopes.every((scope) => scope.object === 'mcp')) return actor;
  return { ...actor, token: { ...token, scopes: presetScopes('Admin') } };
}

type Runner = (ctx: AppContext, actor: Actor, args: Record<string, unknown>) => Promise<unknown>;

/** Runs a tool: a refusal, an AppError or a failure as a tool error (never a stack), the answer as compact JSON. */
async function answer(ctx: AppContext, actor: Actor, log: FastifyBaseLogger, name: string, run: Runner, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    const result = await run(ctx, actor, args);
    return { content: [{ type: 'text', text: JSON.stringify(compact(result)) }] };
  } catch (error) {
    if (error instanceof AppError) return errorResult(`${error.code}: ${error.message}`);
    log.error({ err: error, tool: name }, 'mcp tool failed');
    return errorResult('internal error: the tool failed; the server log has the details');
  }
}

/**
 * A new MCP server for one request, bound to the caller: the default tools, a tool per playbook and view
 * marked for MCP that the caller may use (dynamic.ts), resources (resources.ts) and prompts (prompts.ts).
 */
export async function buildMcpServer(ctx: AppContext, actor: Actor, log: FastifyBaseLogger): Promise<McpServer> {
  const server = new McpServer({ name: 'watchkeeper', version: '0.1.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  const names = new Set<string>();
  for (const tool of tools) {
    names.add(tool.name);
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly } },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        const refused = refusal(actor, tool.needs);
        if (refused) return errorResult(refused);
        return answer(ctx, actor, log, tool.name, (c, a, input) => tool.run(c, a, input), args);
      },
    );
  }
  for (const tool of await dynamicTools(ctx.pool, names)) {
    if (!tool.usableBy(actor)) continue;
    names.add(tool.name);
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args: Record<string, unknown>): Promise<CallToolResult> => answer(ctx, actor, log, tool.name, tool.run, args),
    );
  }
  registerResources(server, ctx, actor, compact);
  registerPrompts(server, ctx, actor, names);
  return server;
}

export type { z };
