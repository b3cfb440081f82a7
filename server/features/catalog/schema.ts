import { z } from 'zod';
import { mappingShape } from './mapping';
import { SOURCES } from './sources';

let cached: Record<string, unknown> | undefined;

/** JSON schema of a ScrapeConfig spec (each scraper type's fields plus the shared mapping), for editors. */
export function scraperSpecJsonSchema(): Record<string, unknown> {
  if (cached) return cached;
  const entryOf = (schema: z.ZodType) => {
    const own = schema instanceof z.ZodObject ? schema.shape : {};
    return z.toJSONSchema(z.object({ ...mappingShape, ...own }).strict(), { unrepresentable: 'any', io: 'input' });
  };
  const properties: Record<string, unknown> = {
    schedule: { type: 'string', description: 'cron, @every 30m, @hourly (default) or @never; at least every 30s' },
    full: { type: 'boolean' },
    logLevel: { type: 'string' },
    retention: {
      type: 'object',
      properties: { staleItemAge: { type: 'string', description: 'items not seen this long are deleted (default 24h)' }, changes: { type: 'array' }, types: { type: 'array' } },
      additionalProperties: false,
    },
  };
  for (const source of SOURCES) properties[source.key] = { type: 'array', description: source.label, items: entryOf(source.schema) };
  cached = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, additionalProperties: true };
  return cached;
}
