/**
 * The Health page's search box (spec §2 hint: `name=grafana type=Kubernetes::Deployment
 * health=healthy,unhealthy`), parsed on the server: `key=value[,value…]` keeps checks whose field matches
 * one of the values (`*` is a wildcard), `key!=value` drops them, and plain words must appear in the name,
 * description, endpoint or canary name. Keys other than the fields below are label keys.
 */
export interface SearchTerm {
  field: 'name' | 'type' | 'namespace' | 'canary' | 'health' | 'status' | 'description' | 'endpoint' | 'agent' | 'severity' | 'owner' | 'label';
  /** The label key, for field 'label'. */
  key?: string;
  values: string[];
  negate: boolean;
}

export interface ParsedSearch {
  terms: SearchTerm[];
  words: string[];
}

const FIELDS: Record<string, SearchTerm['field']> = {
  name: 'name',
  type: 'type',
  namespace: 'namespace',
  canary: 'canary',
  canary_name: 'canary',
  health: 'health',
  status: 'status',
  description: 'description',
  endpoint: 'endpoint',
  agent: 'agent',
  agent_id: 'agent',
  severity: 'severity',
  owner: 'owner',
};

/** Splits on spaces outside double quotes. */
function tokens(input: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of input) {
    if (char === '"') quoted = !quoted;
    else if (/\s/.test(char) && !quoted) {
      if (current) out.push(current);
      current = '';
    } else current += char;
  }
  if (current) out.push(current);
  return out;
}

export function parseSearch(input: string | undefined): ParsedSearch {
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  for (const token of tokens(input ?? '')) {
    const match = /^([A-Za-z0-9_.\/-]+)(!=|=)(.*)$/.exec(token);
    if (!match) {
      words.push(token);
      continue;
    }
    const [, rawKey = '', operator, rawValue = ''] = match;
    const values = rawValue.split(',').map((value) => value.trim()).filter(Boolean);
    if (values.length === 0) continue;
    const field = FIELDS[rawKey.toLowerCase()];
    terms.push(field ? { field, values, negate: operator === '!=' } : { field: 'label', key: rawKey, values, negate: operator === '!=' });
  }
  return { terms, words };
}

/** A search value as an ILIKE pattern: `*` matches anything, other characters literally. */
export function likePattern(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/\*/g, '%');
}
