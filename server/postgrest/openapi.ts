import type { ColumnInfo, Schema } from './schema';

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

const readParams = [
  { name: 'select', in: 'query', schema: { type: 'string' }, description: 'Columns, alias:col, col::cast, json->paths, embeds relation!hint!inner(cols)' },
  { name: 'order', in: 'query', schema: { type: 'string' }, description: 'col.asc|desc.nullsfirst|nullslast, comma separated' },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'or', in: 'query', schema: { type: 'string' }, description: 'or=(a.eq.1,and(b.gt.2,c.is.null))' },
  { name: 'Prefer', in: 'header', schema: { type: 'string' }, description: 'count=exact, return=representation|minimal|headers-only, resolution=merge-duplicates|ignore-duplicates, missing=default' },
  { name: 'Range', in: 'header', schema: { type: 'string' }, description: 'items window, e.g. 0-49' },
];

const FILTERS =
  'Filters: column=[not.]op.value with eq neq gt gte lt lte like ilike match imatch in is isdistinct cs cd ov sl sr nxr nxl adj fts plfts phfts wfts; embed.column=… filters embedded rows. See docs/API.md.';

/** A JSON schema for a column from its PostgreSQL type category. */
function columnSchema(column: ColumnInfo): Record<string, unknown> {
  switch (column.category) {
    case 'N':
      return { type: ['number', 'null'], description: column.type };
    case 'B':
      return { type: ['boolean', 'null'] };
    case 'A':
      return { type: ['array', 'null'], description: column.type };
    case 'D':
      return { type: ['string', 'null'], format: column.type === 'date' ? 'date' : 'date-time' };
    case 'U':
      return column.type === 'json' || column.type === 'jsonb' ? { description: column.type } : { type: ['string', 'null'], description: column.type };
    default:
      return { type: ['string', 'null'], description: column.type };
  }
}

function rowsSchema(columns: ReadonlyMap<string, ColumnInfo>): Record<string, unknown> {
  const properties = Object.fromEntries([...columns.values()].map((column) => [column.name, columnSchema(column)]));
  return { type: 'array', items: { type: 'object', properties } };
}

/** OpenAPI paths for /api/db: one per served relation and function, with its columns and methods. */
export function postgrestOpenApi(schema: Schema): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const info of [...schema.relations.values()].sort((a, b) => a.def.name.localeCompare(b.def.name))) {
    const { def } = info;
    const rows = { description: 'Rows (one object with Accept: application/vnd.pgrst.object+json); Content-Range has the window and, with count=exact, the total', content: { 'application/json': { schema: rowsSchema(info.columns) } } };
    const property = (name: string): [string, Record<string, unknown>] => {
      const column = info.columns.get(name);
      return [name, column ? columnSchema(column) : {}];
    };
    const body = (names: readonly string[]) => ({ content: { 'application/json': { schema: { type: 'object', properties: Object.fromEntries(names.map(property)) } } } });
    const operations: Record<string, unknown> = {
      get: { summary: `Read ${def.name} (RBAC object ${def.rbac})`, description: FILTERS, tags: ['db'], parameters: readParams, responses: { '200': rows, '206': rows, default: errorBody } },
    };
    if (def.insertable?.length) {
      operations.post = { summary: `Insert${def.primaryKey ? ' or upsert' : ''} ${def.name} rows (an object or an array)`, tags: ['db'], parameters: readParams, requestBody: body(def.insertable), responses: { '201': rows, default: errorBody } };
    }
    if (def.updatable?.length) {
      operations.patch = { summary: `Update the filtered ${def.name} rows (a filter is required)`, tags: ['db'], parameters: readParams, requestBody: body(def.updatable), responses: { '200': rows, '204': { description: 'Updated' }, default: errorBody } };
    }
    if (def.deletable) {
      operations.delete = { summary: `Delete the filtered ${def.name} rows (a filter is required${def.softDelete ? '; sets deleted_at' : ''})`, tags: ['db'], parameters: readParams, responses: { '200': rows, '204': { description: 'Deleted' }, default: errorBody } };
    }
    paths[`/api/db/${def.name}`] = operations;
  }
  for (const fn of [...schema.functions.values()].sort((a, b) => a.def.name.localeCompare(b.def.name))) {
    const args = { type: 'object', properties: Object.fromEntries(fn.args.map((arg) => [arg.name, { description: arg.type }])), required: fn.args.filter((arg) => !arg.hasDefault).map((arg) => arg.name) };
    const result = { description: 'The function result as JSON', content: { 'application/json': { schema: fn.columns ? rowsSchema(fn.columns) : {} } } };
    const query = fn.args.map((arg) => ({ name: arg.name, in: 'query', required: !arg.hasDefault, schema: { type: 'string' }, description: arg.type }));
    paths[`/api/db/rpc/${fn.def.name}`] = {
      get: { summary: `Call ${fn.def.name} read-only`, tags: ['db'], parameters: [...query, ...readParams], responses: { '200': result, default: errorBody } },
      post: { summary: `Call ${fn.def.name}`, tags: ['db'], parameters: readParams, requestBody: { content: { 'application/json': { schema: args } } }, responses: { '200': result, default: errorBody } },
    };
  }
  return paths;
}
