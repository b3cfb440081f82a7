import type { NodeModifiers, OrderTerm, ParsedQuery } from '../ast';
import { parseError } from '../errors';
import { parseFilter, parseLogic } from './filter';
import { MAX_ITEMS, parseCount, parseField, splitTopLevel } from './lexer';
import { parseSelect } from './select';

export interface QueryParam {
  key: string;
  value: string;
}

/**
 * The raw query string as ordered key/value pairs: repeated keys (`id=gt.1&id=lt.5`) are separate
 * filters, so fastify's parsed object (which merges them) is not used.
 */
export function splitQueryString(query: string): QueryParam[] {
  const params: QueryParam[] = [];
  if (query === '') return params;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    params.push({ key: decode(rawKey), value: decode(rawValue) });
  }
  if (params.length > 2 * MAX_ITEMS) throw parseError('query string', `${params.length} parameters`, `more than ${2 * MAX_ITEMS} parameters`);
  return params;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw parseError('query string', text, 'invalid percent-encoding');
  }
}

const MODIFIERS = new Set(['order', 'limit', 'offset', 'or', 'and']);

function nodeOf(nodes: Map<string, NodeModifiers>, path: string): NodeModifiers {
  let node = nodes.get(path);
  if (!node) {
    node = { filters: [] };
    nodes.set(path, node);
  }
  return node;
}

/**
 * Splits `agents.people.order` into the embed path (`agents.people`) and the last name; a JSON path's
 * keys are never split (`data->a.b` keeps its dot).
 */
function splitPath(key: string): { path: string; last: string } {
  const arrow = key.indexOf('->');
  const head = arrow < 0 ? key : key.slice(0, arrow);
  const tail = arrow < 0 ? '' : key.slice(arrow);
  // `x.not.or` / `x.not.and`: the negation belongs to the last name.
  const negated = /^(.*?)(?:^|\.)(not\.(?:or|and))$/.exec(head);
  if (negated && tail === '') return { path: negated[1] ?? '', last: negated[2] ?? '' };
  const dot = head.lastIndexOf('.');
  if (dot < 0) return { path: '', last: key };
  return { path: head.slice(0, dot), last: head.slice(dot + 1) + tail };
}

/** `col.desc.nullslast,other,agents(name).asc` → order terms. */
export function parseOrder(value: string): OrderTerm[] {
  const terms = splitTopLevel(value);
  if (!terms) throw parseError('order', value, 'unbalanced parentheses');
  if (terms.length > MAX_ITEMS) throw parseError('order', value, `more than ${MAX_ITEMS} terms`);
  return terms.map((term) => {
    const parts = term.split('.');
    let nulls: OrderTerm['nulls'];
    let direction: OrderTerm['direction'] = 'asc';
    const last = parts[parts.length - 1];
    if (parts.length > 1 && (last === 'nullsfirst' || last === 'nullslast')) {
      nulls = last === 'nullsfirst' ? 'first' : 'last';
      parts.pop();
    }
    const dir = parts[parts.length - 1];
    if (parts.length > 1 && (dir === 'asc' || dir === 'desc')) {
      direction = dir;
      parts.pop();
    }
    const target = parts.join('.');
    const related = /^([^()]+)\(([^()]+)\)$/.exec(target);
    const field = parseField(related ? (related[2] ?? '') : target);
    if (!field) throw parseError('order', value, `unexpected "${term}" expecting field[.asc|.desc][.nullsfirst|.nullslast]`);
    return { field, direction, ...(nulls ? { nulls } : {}), ...(related ? { embed: related[1] ?? '' } : {}) };
  });
}

function parseColumnList(what: string, value: string): string[] {
  const names = value.split(',').map((name) => name.trim().replace(/^"(.*)"$/, '$1'));
  if (names.some((name) => name === '')) throw parseError(what, value, 'empty column name');
  return names;
}

/** Builds the parsed request from the query parameters (for /rpc GET the handler takes the arguments out first). */
export function parseQuery(params: QueryParam[]): ParsedQuery {
  const nodes = new Map<string, NodeModifiers>();
  nodeOf(nodes, '');
  const query: ParsedQuery = { select: [{ kind: 'star' }], nodes };
  for (const { key, value } of params) {
    if (key === 'select') {
      query.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      query.columns = parseColumnList('columns', value);
      continue;
    }
    if (key === 'on_conflict') {
      query.onConflict = parseColumnList('on_conflict', value);
      continue;
    }
    const { path, last } = splitPath(key);
    if (MODIFIERS.has(last) || last === 'not.or' || last === 'not.and') {
      const node = nodeOf(nodes, path);
      if (last === 'order') node.order = parseOrder(value);
      else if (last === 'limit' || last === 'offset') {
        const count = parseCount(value);
        if (count === undefined) throw parseError(`${last} parameter`, value, 'expecting a non-negative integer');
        node[last] = count;
      } else {
        const negate = last.startsWith('not.');
        node.filters.push(parseLogic(last.endsWith('or') ? 'or' : 'and', negate, value));
      }
      continue;
    }
    nodeOf(nodes, path).filters.push(parseFilter(last, value));
  }
  return query;
}
