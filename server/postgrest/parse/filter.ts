import { FTS_OPERATORS, QUANTIFIABLE, RANGE_OPERATORS, SIMPLE_OPERATORS, type Condition, type Field, type Filter, type LogicTree, type Predicate } from '../ast';
import { parseError } from '../errors';
import { MAX_DEPTH, MAX_ITEMS, parseField, splitTopLevel, unquote } from './lexer';

const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((item) => item === value);
}

/**
 * `[not.]op[(modifier)].value` → a predicate. `what` names the parameter in errors (PostgREST says
 * "failed to parse filter (…)").
 */
export function parseOperation(text: string, field: Field, what = 'filter'): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  if (dot < 0) throw parseError(what, text, 'unexpected end of input expecting operator (eq, gt, ...)');
  const opText = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  const match = /^([a-z]+)(?:\(([^()]*)\))?$/.exec(opText);
  const op = match?.[1] ?? '';
  const modifier = match?.[2];
  const fail = (details: string) => parseError(what, text, details);
  const predicate = ((): Predicate => {
    if (isOneOf(SIMPLE_OPERATORS, op)) {
      if (modifier === undefined) return { op, value };
      if ((modifier === 'any' || modifier === 'all') && isOneOf(QUANTIFIABLE, op)) return { op, value, quantifier: modifier };
      throw fail(`unexpected modifier "${modifier}" for operator "${op}"`);
    }
    if (modifier !== undefined && !isOneOf(FTS_OPERATORS, op)) throw fail(`unexpected modifier "${modifier}" for operator "${op}"`);
    if (isOneOf(RANGE_OPERATORS, op)) return { op, value };
    if (isOneOf(FTS_OPERATORS, op)) {
      if (modifier !== undefined && !/^[A-Za-z_]{1,63}$/.test(modifier)) throw fail(`invalid text search language "${modifier}"`);
      return modifier === undefined ? { op, value } : { op, value, language: modifier };
    }
    if (op === 'in') return { op, values: parseList(value, text, what) };
    if (op === 'is') {
      const lowered = value.toLowerCase();
      if (!isOneOf(IS_VALUES, lowered)) throw fail(`unexpected "${value}" expecting null, not_null, true, false or unknown`);
      return { op, value: lowered };
    }
    throw fail(`unknown operator "${opText}"`);
  })();
  return { kind: 'condition', field, negate, predicate };
}

/** `(a,"b,c",d)` → ['a', 'b,c', 'd']. */
function parseList(value: string, input: string, what: string): string[] {
  if (!value.startsWith('(') || !value.endsWith(')')) throw parseError(what, input, 'unexpected value expecting a list "(a,b,…)"');
  const inner = value.slice(1, -1);
  if (inner.trim() === '') return [];
  const parts = splitTopLevel(inner);
  if (!parts) throw parseError(what, input, 'unbalanced quotes or parentheses in the list');
  if (parts.length > 10_000) throw parseError(what, input, 'too many list items');
  return parts.map((part) => unquote(part.trim()));
}

/** A `key=value` filter; `key` may be a column with a JSON path. */
export function parseFilter(key: string, value: string): Condition {
  const field = parseField(key);
  if (!field) throw parseError('filter', `${key}=${value}`, `invalid column "${key}"`);
  return parseOperation(value, field);
}

/**
 * `or=(a.eq.1,and(b.gt.2,c.is.null))`: the value of an `or`/`and` parameter. `negate` is set for the
 * `not.or`/`not.and` keys.
 */
export function parseLogic(op: 'and' | 'or', negate: boolean, value: string, depth = 0): LogicTree {
  if (depth > MAX_DEPTH) throw parseError('logic tree', value, `logic trees are nested deeper than ${MAX_DEPTH} levels`);
  if (!value.startsWith('(') || !value.endsWith(')')) throw parseError('logic tree', value, 'unexpected value expecting "("');
  const parts = splitTopLevel(value.slice(1, -1));
  if (!parts || (parts.length === 1 && parts[0]?.trim() === '')) throw parseError('logic tree', value, 'unbalanced or empty logic tree');
  if (parts.length > MAX_ITEMS) throw parseError('logic tree', value, `more than ${MAX_ITEMS} conditions`);
  const children: Filter[] = parts.map((part) => parseLogicItem(part.trim(), depth));
  return { kind: 'logic', op, negate, children };
}

function parseLogicItem(item: string, depth: number): Filter {
  const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(item);
  if (nested) {
    const op = nested[2] === 'and' ? 'and' : 'or';
    return parseLogic(op, nested[1] !== undefined, nested[3] ?? '', depth + 1);
  }
  // field.[not.]op.value: the field ends at the first '.' (JSON keys with dots are not supported here).
  const dot = item.indexOf('.');
  if (dot <= 0) throw parseError('logic tree', item, 'unexpected end of input expecting field.operator.value');
  const field = parseField(item.slice(0, dot));
  if (!field) throw parseError('logic tree', item, `invalid column "${item.slice(0, dot)}"`);
  const condition = parseOperation(item.slice(dot + 1), field, 'logic tree');
  // Values in a logic tree may be quoted to carry commas and parentheses.
  const predicate = condition.predicate;
  if ('value' in predicate && predicate.op !== 'is') return { ...condition, predicate: { ...predicate, value: unquote(predicate.value) } };
  return condition;
}
