import { isRecord } from '../../errors';

/**
 * Mission Control's resource search query (duty's query grammar), as `matchQuery(resource, query)` reads
 * it in CEL and as selectors' `search` is written:
 *
 * - terms separated by spaces must all hold; `|` between groups means either; `( … )` groups;
 * - `key=value`, `key!=value` (also `key:value` for `=`, and `<`, `>`, `<=`, `>=` comparing numbers); the
 *   value is a comma list of patterns, each matched without regard to case, `*` at its start, end or both
 *   (suffix, prefix, contains), `!` before a pattern excludes; a value in double quotes may hold spaces;
 * - keys: `name`, `namespace` (or the `namespace` tag), `id`, `type`, `status`, `health`, `agent`,
 *   `labels.<key>`, `tags.<key>`, `properties.<name>` (the resource's properties list, by name), or any
 *   other top-level field of the resource (a value that is not text compared as its JSON);
 * - `labels.<key>`, `tags.<key>`, `properties.<name>` alone: the key exists (`!labels.x`: it does not);
 * - a bare word matches names starting with it (`api` is `name=api*`), `-word` names that do not.
 */

export type QueryNode =
  | { kind: 'and' | 'or'; nodes: QueryNode[] }
  | { kind: 'field'; field: string; op: '=' | '!=' | '<' | '>' | '<=' | '>='; value: string }
  | { kind: 'exists'; field: string; negate: boolean }
  | { kind: 'name'; pattern: string; negate: boolean };

export class QueryParseError extends Error {}

const OPERATORS = ['<=', '>=', '!=', '=', ':', '<', '>'] as const;
/** Characters that end a bare key segment (duty's PathSegment: letters, digits and @ _ * / , : [ ] \ -). */
const SEGMENT = /[@A-Za-z0-9_*/,:\\[\]-]/;
const EXIST_PREFIXES = new Set(['labels', 'tags', 'properties']);

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): QueryNode {
    const node = this.query();
    this.space();
    if (this.at < this.text.length) throw new QueryParseError(`unexpected ${JSON.stringify(this.text.slice(this.at, this.at + 20))} at ${this.at + 1}`);
    return node;
  }

  private space() {
    while (this.at < this.text.length && /\s/.test(this.text[this.at] ?? '')) this.at += 1;
  }

  private peek(): string {
    this.space();
    return this.text[this.at] ?? '';
  }

  private query(): QueryNode {
    const groups = [this.and()];
    while (this.peek() === '|') {
      this.at += 1;
      groups.push(this.and());
    }
    const [only] = groups;
    return groups.length === 1 && only ? only : { kind: 'or', nodes: groups };
  }

  private and(): QueryNode {
    const nodes: QueryNode[] = [];
    for (;;) {
      const next = this.peek();
      if (next === '' || next === '|' || next === ')') break;
      nodes.push(this.term());
    }
    if (nodes.length === 0) throw new QueryParseError(`expected a term at ${this.at + 1}`);
    const [only] = nodes;
    return nodes.length === 1 && only ? only : { kind: 'and', nodes };
  }

  private quoted(): string {
    const end = this.text.indexOf('"', this.at + 1);
    if (end < 0) throw new QueryParseError(`unterminated " at ${this.at + 1}`);
    const value = this.text.slice(this.at + 1, end);
    this.at = end + 1;
    return value;
  }

  private segment(): string {
    if (this.text[this.at] === '"') return this.quoted();
    const start = this.at;
    while (this.at < this.text.length && SEGMENT.test(this.text[this.at] ?? '')) this.at += 1;
    return this.text.slice(start, this.at);
  }

  private operator(): (typeof OPERATORS)[number] | undefined {
    this.space();
    const found = OPERATORS.find((op) => this.text.startsWith(op, this.at));
    if (found) this.at += found.length;
    return found;
  }

  private term(): QueryNode {
    if (this.text[this.at] === '(') {
      this.at += 1;
      const inner = this.query();
      if (this.peek() !== ')') throw new QueryParseError(`expected ) at ${this.at + 1}`);
      this.at += 1;
      return inner;
    }
    const start = this.at;
    const negate = this.text[this.at] === '!' || (this.text[this.at] === '-' && this.text[this.at + 1] !== undefined && this.text[this.at + 1] !== '-');
    if (this.text[this.at] === '!') this.at += 1;
    const segments = [this.segment()];
    while (this.text[this.at] === '.' && segments[0] !== '') {
      this.at += 1;
      segments.push(this.segment());
    }
    const field = segments.join('.');
    if (field === '') throw new QueryParseError(`unexpected ${JSON.stringify(this.text[this.at])} at ${this.at + 1}`);
    const save = this.at;
    const op = this.text[start] === '!' ? undefined : this.operator();
    if (op) {
      this.space();
      const value = this.text[this.at] === '"' ? this.quoted() : this.value();
      return { kind: 'field', field, op: op === ':' ? '=' : op, value };
    }
    this.at = save;
    const first = segments[0] ?? '';
    if (segments.length > 1 && EXIST_PREFIXES.has(first)) return { kind: 'exists', field, negate: this.text[start] === '!' };
    if (this.text[start] === '!') throw new QueryParseError(`"!" is for labels.<key>, tags.<key> or properties.<name> at ${start + 1}`);
    // A bare word: a name prefix unless it has a wildcard of its own (duty adds the `*`).
    const word = negate ? field.slice(1) : field;
    return { kind: 'name', pattern: word.includes('*') ? word : `${word}*`, negate };
  }

  private value(): string {
    const start = this.at;
    while (this.at < this.text.length && !/[\s()|]/.test(this.text[this.at] ?? '')) this.at += 1;
    return this.text.slice(start, this.at);
  }
}

const parsed = new Map<string, QueryNode>();

/** The query's tree (cached); QueryParseError when it does not parse. */
export function parseResourceQuery(query: string): QueryNode {
  let node = parsed.get(query);
  if (!node) {
    node = query.trim() === '' ? { kind: 'and', nodes: [] } : new Parser(query).parse();
    if (parsed.size > 1000) parsed.clear();
    parsed.set(query, node);
  }
  return node;
}

/** One pattern against a value (flanksource/commons matchPattern): `*`, exact, `*x*`, `*x`, `x*`, case-insensitive. */
function matchPattern(item: string, pattern: string): boolean {
  if (pattern === '*') return true;
  const value = item.toLowerCase();
  const p = pattern.toLowerCase();
  if (value === p) return true;
  if (p.length > 1 && p.startsWith('*') && p.endsWith('*') && value.includes(p.slice(1, -1))) return true;
  if (p.startsWith('*') && value.endsWith(p.slice(1))) return true;
  if (p.endsWith('*') && value.startsWith(p.slice(0, -1))) return true;
  return false;
}

function unescape(pattern: string): string {
  try {
    return decodeURIComponent(pattern.replace(/\+/g, ' '));
  } catch {
    return pattern;
  }
}

/** flanksource/commons MatchItems: exclusions (`!x`) first; then any pattern; only exclusions and none hit: a match. */
export function matchItems(item: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const all = patterns.map((pattern) => unescape(pattern.trim()));
  for (const pattern of all) if (pattern.startsWith('!') && matchPattern(item, pattern.slice(1))) return false;
  for (const pattern of all) if (!pattern.startsWith('!') && matchPattern(item, pattern)) return true;
  return all.every((pattern) => pattern.startsWith('!'));
}

type Resource = Record<string, unknown>;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function mapOf(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** `properties.<name>`: the resource's properties list ([{name, text, value}]), or a map of them. */
function property(resource: Resource, name: string): { found: boolean; value: string } {
  const properties = resource.properties;
  if (Array.isArray(properties)) {
    const hit = properties.find((item): item is Record<string, unknown> => isRecord(item) && item.name === name);
    if (!hit) return { found: false, value: '' };
    return { found: true, value: hit.text !== undefined && hit.text !== '' ? text(hit.text) : text(hit.value) };
  }
  const map = mapOf(properties);
  if (map && Object.hasOwn(map, name)) return { found: true, value: text(map[name]) };
  return { found: false, value: '' };
}

function keyed(source: unknown, key: string): { found: boolean; value: string } {
  const map = mapOf(source);
  return map && Object.hasOwn(map, key) ? { found: true, value: text(map[key]) } : { found: false, value: '' };
}

/** Where a key is read from: duty's fields first, then a Kubernetes object's metadata for the same names. */
function lookup(resource: Resource, field: string): { found: boolean; value: string } {
  const metadata = mapOf(resource.metadata) ?? {};
  const first = (...candidates: unknown[]) => {
    const hit = candidates.find((candidate) => candidate !== undefined && candidate !== null && candidate !== '');
    return { found: hit !== undefined, value: text(hit) };
  };
  if (field.startsWith('labels.')) {
    const key = field.slice('labels.'.length).trim();
    const own = keyed(resource.labels, key);
    return own.found ? own : keyed(metadata.labels, key);
  }
  if (field.startsWith('tags.')) return keyed(resource.tags, field.slice('tags.'.length).trim());
  if (field.startsWith('properties.')) return property(resource, field.slice('properties.'.length).trim());
  switch (field) {
    case 'name':
      return first(resource.name, metadata.name);
    case 'namespace':
      return first(resource.namespace, mapOf(resource.tags)?.namespace, metadata.namespace);
    case 'id':
      return first(resource.id, metadata.uid);
    case 'type':
      return first(resource.type, resource.config_type, resource.kind);
    case 'agent':
      return first(resource.agent_id, resource.agent);
    default:
      return Object.hasOwn(resource, field) ? { found: true, value: text(resource[field]) } : { found: false, value: '' };
  }
}

function compare(value: string, op: '<' | '>' | '<=' | '>=', wanted: string): boolean {
  const a = Number(value);
  const b = Number(wanted);
  if (value.trim() === '' || wanted.trim() === '' || Number.isNaN(a) || Number.isNaN(b)) return false;
  return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
}

function matches(resource: Resource, node: QueryNode): boolean {
  switch (node.kind) {
    case 'and':
      return node.nodes.every((child) => matches(resource, child));
    case 'or':
      return node.nodes.some((child) => matches(resource, child));
    case 'exists':
      return lookup(resource, node.field).found !== node.negate;
    case 'name':
      return matchItems(lookup(resource, 'name').value, [node.pattern]) !== node.negate;
    case 'field': {
      const { value } = lookup(resource, node.field);
      if (node.op === '=' || node.op === '!=') {
        const hit = matchItems(value, node.value.split(','));
        return node.op === '=' ? hit : !hit;
      }
      return compare(value, node.op, node.value);
    }
  }
}

/** Whether a resource (a plain object: maps as objects) matches a search query; QueryParseError when it does not parse. */
export function matchResourceQuery(resource: Resource, query: string): boolean {
  return matches(resource, parseResourceQuery(query));
}
