import { z } from 'zod';

/**
 * `spec.mcp` of a Playbook or a View (docs/MCP.md): offered to LLM clients as its own MCP tool — `true`, or
 * an object with the tool's title, description, hints and tags (`enabled: false` turns it off). Only zod is
 * imported here, so playbooks/spec.ts and views/spec.ts can use it without a cycle through the MCP feature.
 */
export const mcpMarkSchema = z.union([z.boolean(), z.object({
  enabled: z.boolean().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
})]);
