import type { Condition, ColumnItem, EmbedItem, NodeModifiers, OrderTerm, ParsedQuery, SelectItem } from '../ast';
import { PgrstError, noRelationship } from '../errors';
import { defaultKey } from '../parse/lexer';
import type { RbacObject, RelationDef } from '../registry';
import type { Join, Schema } from '../schema';
import { conditionSql, fieldExpr, filterSql, ident, mentions, type Params, type Source } from './expr';
import { resolveJoin } from './joins';

/** The SQL pieces of one node of the select tree. */
export interface NodeSql {
  columns: string[];
  where: string[];
  order: string[];
  limit: number | undefined;
  offset: number | undefined;
}

interface BuiltEmbed {
  key: string;
  join: Join;
  source: Source;
  alias: string;
  /** The child's own conditions plus the join, for EXISTS and related orders. */
  where: string[];
  def: RelationDef;
}

const EMPTY: NodeModifiers = { filters: [] };

export function relationSource(name: string, source: string, columns: Source['columns']): Source {
  return { name, from: ident(source), columns };
}

/**
 * Plans the select tree: columns (with aliases, casts, JSON paths), embeds as correlated subqueries
 * that build JSON in the database, filters, row rules and order, node by node.
 */
export class ReadPlanner {
  private aliases = 0;
  /** RBAC objects of every relation the request reads (the top one and each embed). */
  readonly reads = new Set<RbacObject>();
  private readonly visited = new Set<string>();

  constructor(
    private readonly schema: Schema,
    private readonly query: ParsedQuery,
    readonly params: Params,
    private readonly stripNulls: boolean,
  ) {}

  nextAlias(): string {
    const alias = `_${this.aliases}`;
    this.aliases += 1;
    return alias;
  }

  /** JSON of a row alias, honouring `nulls=stripped`. */
  rowJson(alias: string): string {
    return this.stripNulls ? `json_strip_nulls(row_to_json(${alias}))` : `row_to_json(${alias})`;
  }

  node(source: Source, def: RelationDef | undefined, alias: string, select: readonly SelectItem[], path: string): NodeSql {
    this.visited.add(path);
    if (def) this.reads.add(def.rbac);
    const modifiers = this.query.nodes.get(path) ?? EMPTY;
    const columns: string[] = [];
    const where: string[] = [];
    const embeds = new Map<string, BuiltEmbed>();

    for (const item of select) {
      if (item.kind === 'star') {
        for (const column of source.columns.keys()) columns.push(`${alias}.${ident(column)} AS ${ident(column)}`);
      } else if (item.kind === 'column') {
        columns.push(this.column(source, alias, item));
      } else {
        if (!def) throw noRelationship(source.name, item.relation, item.hint);
        const key = item.alias ?? item.relation;
        const built = this.embed(def, alias, item, path === '' ? key : `${path}.${key}`);
        embeds.set(key, built.embed);
        if (built.column) columns.push(built.column);
        if (item.inner) where.push(exists(built.embed));
      }
    }

    const compiler = {
      condition: (condition: Condition): string => {
        const embed = embeds.get(condition.field.name);
        if (embed && !source.columns.has(condition.field.name) && condition.field.path.length === 0) return embedNullSql(condition, embed, source.name);
        return conditionSql(condition, source, alias, this.params);
      },
    };
    for (const filter of modifiers.filters) where.push(filterSql(filter, compiler));
    if (def?.softDelete && !mentions(modifiers.filters, 'deleted_at')) where.push(`${alias}."deleted_at" IS NULL`);

    const order = (modifiers.order ?? []).map((term) => this.orderTerm(term, source, alias, embeds));
    return { columns, where, order, limit: modifiers.limit, offset: modifiers.offset };
  }

  /** PGRST108 for modifiers on a path that is not an embed of this request. */
  checkUnusedNodes(): void {
    for (const [path, node] of this.query.nodes) {
      if (this.visited.has(path)) continue;
      if (node.filters.length > 0 || node.order || node.limit !== undefined || node.offset !== undefined) {
        throw new PgrstError(400, 'PGRST108', `'${path}' is not an embedded resource in this request`, null, `Verify that '${path}' is included in the 'select' query parameter.`);
      }
    }
  }

  private column(source: Source, alias: string, item: ColumnItem): string {
    const expr = fieldExpr(source, alias, item.field, this.params);
    const sql = item.cast ? `(${expr.sql})::${item.cast}` : expr.sql;
    return `${sql} AS ${ident(item.alias ?? defaultKey(item.field))}`;
  }

  private embed(parent: RelationDef, parentAlias: string, item: EmbedItem, path: string): { embed: BuiltEmbed; column: string | undefined } {
    const join = resolveJoin(this.schema, parent.name, item);
    const info = this.schema.relations.get(join.target);
    if (!info) throw noRelationship(parent.name, item.relation, item.hint);
    const source = relationSource(info.def.name, info.source, info.columns);
    const alias = this.nextAlias();
    const child = this.node(source, info.def, alias, item.select, path);
    const joinSql = join.on.map(([ours, theirs]) => `${alias}.${ident(theirs)} = ${parentAlias}.${ident(ours)}`);
    const embed: BuiltEmbed = { key: item.alias ?? item.relation, join, source, alias, where: [...joinSql, ...child.where], def: info.def };
    // An embed with an empty select (`agents!inner()`) only filters; PostgREST leaves it out of the output.
    if (item.select.length === 0) return { embed, column: undefined };
    const order = child.order.length > 0 ? ` ORDER BY ${child.order.join(', ')}` : '';
    const inner = `SELECT ${child.columns.join(', ')} FROM ${source.from} ${alias} WHERE ${embed.where.join(' AND ')}${order}`;
    let expr: string;
    if (join.cardinality === 'one') {
      expr = `(SELECT ${this.rowJson('_e')} FROM (${inner} LIMIT 1) _e)`;
    } else {
      const limit = child.limit === undefined ? '' : ` LIMIT ${this.params.add(child.limit, 'bigint')}`;
      const offset = child.offset === undefined ? '' : ` OFFSET ${this.params.add(child.offset, 'bigint')}`;
      expr = `(SELECT coalesce(json_agg(${this.rowJson('_e')}), '[]') FROM (${inner}${limit}${offset}) _e)`;
    }
    return { embed, column: `${expr} AS ${ident(embed.key)}` };
  }

  private orderTerm(term: OrderTerm, source: Source, alias: string, embeds: Map<string, BuiltEmbed>): string {
    let expr: string;
    let notNull = false;
    if (term.embed === undefined) {
      const field = fieldExpr(source, alias, term.field, this.params);
      expr = field.sql;
      notNull = field.notNull;
    } else {
      const embed = embeds.get(term.embed);
      if (!embed) throw new PgrstError(400, 'PGRST108', `'${term.embed}' is not an embedded resource in this request`, null, `Verify that '${term.embed}' is included in the 'select' query parameter.`);
      if (embed.join.cardinality !== 'one') {
        throw new PgrstError(400, 'PGRST118', `A related order on '${term.embed}' is not possible`, `'${source.name}' and '${term.embed}' do not form a many-to-one or one-to-one relationship`);
      }
      const value = fieldExpr(embed.source, embed.alias, term.field, this.params).sql;
      expr = `(SELECT ${value} FROM ${embed.source.from} ${embed.alias} WHERE ${embed.where.join(' AND ')} LIMIT 1)`;
    }
    // On a NOT NULL column the NULLS clause changes nothing but would keep PostgreSQL off the column's index.
    const nulls = term.nulls === undefined || notNull ? '' : term.nulls === 'first' ? ' NULLS FIRST' : ' NULLS LAST';
    return `${expr} ${term.direction === 'desc' ? 'DESC' : 'ASC'}${nulls}`;
  }
}

function exists(embed: BuiltEmbed): string {
  return `EXISTS (SELECT 1 FROM ${embed.source.from} ${embed.alias} WHERE ${embed.where.join(' AND ')})`;
}

/** `agents=is.null` / `agents=not.is.null`: parents without / with a matching embedded row. */
function embedNullSql(condition: Condition, embed: BuiltEmbed, parent: string): string {
  const predicate = condition.predicate;
  if (predicate.op !== 'is' || (predicate.value !== 'null' && predicate.value !== 'not_null')) {
    throw new PgrstError(400, 'PGRST120', `Bad operator on the '${embed.key}' embedded resource`, 'Only is null or not is null filters are allowed on embedded resources', `filter ${parent}.${embed.key}`);
  }
  const wantsRows = (predicate.value === 'not_null') !== condition.negate;
  return wantsRows ? exists(embed) : `NOT ${exists(embed)}`;
}
