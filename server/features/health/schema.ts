import { z } from 'zod';
import { CHECK_TYPES } from './registry';

let cached: Record<string, unknown> | undefined;

/**
 * The JSON schema of a Canary's spec (schedule, interval, env and one list per check type, each item the
 * type's own fields), from the same zod schemas the server validates with: an editor checking YAML
 * against it agrees with the server.
 */
export function canarySpecJsonSchema(): Record<string, unknown> {
  if (cached) return cached;
  const properties: Record<string, unknown> = {
    schedule: { type: 'string', description: 'cron (5 or 6 fields), @every 30s, @hourly, @daily, … or @never' },
    interval: { type: 'integer', minimum: 0, description: 'seconds between runs (older form of schedule)' },
    icon: { type: 'string' },
    severity: { type: 'string' },
    owner: { type: 'string' },
    env: { type: 'object', additionalProperties: { type: 'object', properties: { value: { type: 'string' } } } },
  };
  const common = {
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    namespace: { type: 'string' },
    icon: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    test: { type: 'object', properties: { expr: { type: 'string' }, template: { type: 'string' } } },
    display: { type: 'object', properties: { expr: { type: 'string' }, template: { type: 'string' } } },
    transform: { type: 'object', properties: { expr: { type: 'string' } } },
    transformDeleteStrategy: { enum: ['MarkHealthy', 'MarkUnhealthy', 'Ignore'] },
  };
  for (const type of CHECK_TYPES) {
    let own: Record<string, unknown> = {};
    try {
      const { $schema: _ignored, ...rest } = z.toJSONSchema(type.schema, { io: 'input', unrepresentable: 'any' });
      own = rest;
    } catch {
      own = {};
    }
    const ownProperties = own.properties && typeof own.properties === 'object' ? own.properties : {};
    const required = Array.isArray(own.required) ? own.required : [];
    const item = { type: 'object', properties: { ...common, ...ownProperties }, required: ['name', ...required] };
    properties[type.type] = type.push ? item : { type: 'array', items: item };
  }
  cached = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties };
  return cached;
}
