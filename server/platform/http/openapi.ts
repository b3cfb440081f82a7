import { z } from 'zod';
import { isRecord } from '../errors';
import type { RouteDoc } from './route';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
    return rest;
  } catch {
    return {};
  }
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = isRecord(json.properties) ? json.properties : {};
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  return Object.entries(properties).filter((entry): entry is [string, JsonSchema] => isRecord(entry[1])).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const errorSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: { error: { type: 'string' }, message: { type: 'string' }, details: {} },
};

/** OpenAPI 3.1 description generated from the routes' own zod schemas. */
export function buildOpenApi(routes: RouteDoc[], info: { version: string; serverUrl: string }, extraPaths: Record<string, unknown> = {}): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...routes].sort((a, b) => a.url.localeCompare(b.url))) {
    const url = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{wildcard}');
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: route.tags,
      operationId: `${route.method.toLowerCase()}${url.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      // Who may call it (spec §6): public, authenticated, or an action on an RBAC resource.
      'x-watchkeeper-access': route.access,
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: route.response ? toSchema(route.response, 'output') : {} } } },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (route.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input') } } };
    paths[url] = { ...(paths[url] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Watchkeeper API', version: info.version, description: 'Operations console API. /api/db speaks PostgREST; see docs/API.md.' },
    servers: [{ url: info.serverUrl }],
    paths: { ...paths, ...extraPaths },
    components: { schemas: { Error: errorSchema } },
  };
}
