import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Action, Resource } from '../../../common/rbac';
import { decide } from '../../platform/auth/decide';
import type { Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/http/errors';
import { tools, type ToolDef } from './tools';

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

/** A new MCP server for one request, its tools bound to the caller. */
export function buildMcpServer(ctx: AppContext, actor: Actor, log: FastifyBaseLogger): McpServer {
  const server = new McpServer({ name: 'watchkeeper', version: '0.1.0' }, { capabilities: { tools: {} } });
  for (const tool of tools as ToolDef[]) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly } },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        const refused = refusal(actor, tool.needs);
        if (refused) return errorResult(refused);
        try {
          const answer = await tool.run(ctx, actor, args);
          return { content: [{ type: 'text', text: JSON.stringify(compact(answer)) }] };
        } catch (error) {
          if (error instanceof AppError) return errorResult(`${error.code}: ${error.message}`);
          log.error({ err: error, tool: tool.name }, 'mcp tool failed');
          return errorResult('internal error: the tool failed; the server log has the details');
        }
      },
    );
  }
  return server;
}

export type { z };
