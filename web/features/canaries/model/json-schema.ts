import { z } from 'zod';
import type { DocPath } from './document';

/**
 * The part of JSON Schema that GET /api/canary/schema uses (it is generated from the server's zod
 * schemas): types, properties, required, items, enum, string and number bounds, anyOf/oneOf. Keywords
 * outside this set are ignored, so a newer schema never makes the editor wrong, only less strict.
 */
export interface JsonSchema {
  type?: string | string[] | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  items?: JsonSchema | undefined;
  additionalProperties?: boolean | JsonSchema | undefined;
  enum?: unknown[] | undefined;
  const?: unknown;
  minLength?: number | undefined;
  pattern?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  exclusiveMinimum?: number | undefined;
  anyOf?: JsonSchema[] | undefined;
  oneOf?: JsonSchema[] | undefined;
  description?: string | undefined;
}

export const jsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z
    .object({
      type: z.union([z.string(), z.array(z.string())]).optional(),
      properties: z.record(z.string(), jsonSchemaSchema).optional(),
      required: z.array(z.string()).optional(),
      items: jsonSchemaSchema.optional(),
      additionalProperties: z.union([z.boolean(), jsonSchemaSchema]).optional(),
      enum: z.array(z.unknown()).optional(),
      const: z.unknown().optional(),
      minLength: z.number().optional(),
      pattern: z.string().optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      exclusiveMinimum: z.number().optional(),
      anyOf: z.array(jsonSchemaSchema).optional(),
      oneOf: z.array(jsonSchemaSchema).optional(),
      description: z.string().optional(),
    })
    .loose(),
);

export interface SchemaProblem {
  path: DocPath;
  message: string;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  null: 'empty',
};

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function patternMatches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    // A pattern this browser cannot compile is the server's to check.
    return true;
  }
}

/** Every problem of a value against a schema, each with its path (all at once, as the server does). */
export function validateJson(value: unknown, schema: JsonSchema, path: DocPath = []): SchemaProblem[] {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) {
    const results = branches.map((branch) => validateJson(value, branch, path));
    if (results.some((problems) => problems.length === 0)) return [];
    // The branch the value looks meant for (its problems are inside the value), else the one with fewest.
    const inside = results.filter((problems) => problems.every((problem) => problem.path.length > path.length));
    return (inside.length > 0 ? inside : results).reduce((fewest, problems) => (problems.length < fewest.length ? problems : fewest));
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return [{ path, message: `must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}` }];
  }
  if (schema.enum && !schema.enum.some((option) => option === value)) return [{ path, message: `must be one of: ${schema.enum.map(String).join(', ')}` }];
  if (schema.const !== undefined && schema.const !== value) return [{ path, message: `must be ${String(schema.const)}` }];
  const problems: SchemaProblem[] = [];
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push({ path, message: schema.minLength === 1 ? 'is required' : `must be at least ${schema.minLength} characters` });
    else if (schema.pattern !== undefined && !patternMatches(schema.pattern, value)) problems.push({ path, message: `does not have the expected form (${schema.pattern})` });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push({ path, message: `must be at least ${schema.minimum}` });
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) problems.push({ path, message: `must be more than ${schema.exclusiveMinimum}` });
    if (schema.maximum !== undefined && value > schema.maximum) problems.push({ path, message: `must be at most ${schema.maximum}` });
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    value.forEach((item, index) => problems.push(...validateJson(item, items, [...path, index])));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = Object.fromEntries(Object.entries(value));
    for (const key of schema.required ?? []) if (record[key] === undefined || record[key] === null) problems.push({ path: [...path, key], message: 'is required' });
    for (const [key, item] of Object.entries(record)) {
      // Own keys only: a key such as 'constructor' must not find Object.prototype's.
      const property = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (property) problems.push(...validateJson(item, property, [...path, key]));
      else if (typeof schema.additionalProperties === 'object') problems.push(...validateJson(item, schema.additionalProperties, [...path, key]));
    }
  }
  return problems;
}
