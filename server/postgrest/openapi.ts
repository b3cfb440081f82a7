import type { Registry } from './registry';

const errorBody = {
  description: 'PostgREST error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: ['string', 'null'] }, hint: { type: ['string', 'null'] } },
      },
    },
  },
};

const queryParams = [
  { name: 'select', in: 'query', schema: { type: 'string' }, description: 'Columns, alias:col, col::cast, json->paths, embeds relation!hint!inner(cols)' },
  { name: 'order', in: 'query', schema: { type: 'string' }, description: 'col.asc|desc.nullsfirst|nullslast, comma separated' },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'or', in: 'query', schema: { type: 'string' }, description: 'or=(a.eq.1,and(b.gt.2,c.is.null))' },
  { name: 'Prefer', in: 'header', schema: { type: 'string' }, description: 'count=exact, return=representation|minimal|headers-only, resolution=merge-duplicates|ignore-duplicates, missing=default' },
  { name: 'Range', in: 'header', schema: { type: 'string' }, description: 'items window, e.g. 0-49' },
];

/** OpenAPI paths for /api/db (its routes are not declared through route(), so they are described here). */
export function postgrestOpenApi(registry: Registry): Record<string, unknown> {
  const relation = { name: 'relation', in: 'path', required: true, schema: { type: 'string', enum: [...registry.relations.keys()].sort() } };
  const rows = { description: 'Rows as a JSON array (or one object with Accept: application/vnd.pgrst.object+json); Content-Range carries the window and, with Prefer: count=exact, the total', content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } };
  const filters = 'Filters: column=[not.]op.value with eq neq gt gte lt lte like ilike match imatch in is isdistinct cs cd ov sl sr nxr nxl adj fts plfts phfts wfts; embed.column=… filters embedded rows.';
  const paths: Record<string, unknown> = {
    '/api/db/{relation}': {
      get: { summary: 'Read a relation (PostgREST)', description: filters, tags: ['db'], parameters: [relation, ...queryParams], responses: { '200': rows, '206': rows, default: errorBody } },
      post: { summary: 'Insert or upsert rows (PostgREST)', tags: ['db'], parameters: [relation, ...queryParams], requestBody: { content: { 'application/json': { schema: {} } } }, responses: { '201': rows, default: errorBody } },
      patch: { summary: 'Update the filtered rows (a filter is required)', tags: ['db'], parameters: [relation, ...queryParams], requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': rows, '204': { description: 'Updated' }, default: errorBody } },
      delete: { summary: 'Delete the filtered rows (a filter is required; soft delete where registered)', tags: ['db'], parameters: [relation, ...queryParams], responses: { '200': rows, '204': { description: 'Deleted' }, default: errorBody } },
    },
  };
  if (registry.functions.size > 0) {
    const fn = { name: 'function', in: 'path', required: true, schema: { type: 'string', enum: [...registry.functions.keys()].sort() } };
    paths['/api/db/rpc/{function}'] = {
      get: { summary: 'Call a function read-only with arguments from the query string', tags: ['db'], parameters: [fn, ...queryParams], responses: { '200': rows, default: errorBody } },
      post: { summary: 'Call a function with a JSON object of arguments', tags: ['db'], parameters: [fn, ...queryParams], requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': rows, default: errorBody } },
    };
  }
  return paths;
}
