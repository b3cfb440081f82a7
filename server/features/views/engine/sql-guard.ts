/**
 * What view SQL may not do, found in its tokens (docs/VIEWS.md "Panels"): it is one query (SELECT, WITH,
 * VALUES, TABLE) and calls no function with a session-level or server-level side effect. This is the
 * first of three layers and the one that gives the clear message; the reader role (migrations 0021 and
 * 0039: no EXECUTE on set_config or the session advisory locks) and the connection reset after each use
 * hold even for SQL that names a function in a way this does not see.
 */

export interface SqlToken {
  kind: 'word' | 'quoted' | 'string' | 'number' | 'param' | 'punct';
  /** Words lower-cased, quoted identifiers and strings decoded. */
  text: string;
}

const QUERY_WORDS = new Set(['select', 'with', 'values', 'table']);

/** Functions panels may not call, by exact name or by prefix, each with why. */
const REFUSED: ReadonlyArray<{ match: (name: string) => boolean; why: string }> = [
  { match: (name) => /^pg_(try_)?advisory_/.test(name), why: 'advisory locks outlive the query on the pooled connection (and block migrate and apply)' },
  { match: (name) => name === 'pg_notify', why: "it sends notifications on the console's own channels" },
  { match: (name) => name === 'set_config', why: 'it changes session settings (the role among them)' },
  { match: (name) => name.startsWith('dblink'), why: 'it opens connections to other databases' },
  { match: (name) => name.startsWith('lo_') || name === 'loread' || name === 'lowrite', why: 'it uses large objects' },
  {
    match: (name) => ['pg_read_file', 'pg_read_binary_file', 'pg_ls_dir', 'pg_stat_file', 'pg_current_logfile'].includes(name) || name.startsWith('pg_ls_'),
    why: "it reads the database server's files",
  },
  { match: (name) => name === 'pg_terminate_backend' || name === 'pg_cancel_backend', why: 'it signals other sessions' },
  {
    match: (name) => ['pg_reload_conf', 'pg_rotate_logfile', 'pg_switch_wal', 'pg_create_restore_point', 'pg_promote', 'pg_logical_emit_message'].includes(name),
    why: 'it acts on the database server',
  },
  { match: (name) => name.startsWith('query_to_xml') || name.startsWith('cursor_to_xml') || name === 'ts_stat', why: 'it runs SQL given as text' },
];

function isWordStart(ch: string): boolean {
  return /[A-Za-z_\u0080-\uffff]/.test(ch);
}

function isWordPart(ch: string): boolean {
  return /[A-Za-z0-9_$\u0080-\uffff]/.test(ch);
}

/** The body of a quoted run starting at `at` (the opening quote), with the doubled quote as one; and where it ends. */
function quoted(sql: string, at: number, quote: string, backslashes: boolean): { body: string; end: number } {
  let body = '';
  let i = at + 1;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (backslashes && ch === '\\' && i + 1 < sql.length) {
      body += sql[i + 1];
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (sql[i + 1] === quote) {
        body += quote;
        i += 2;
        continue;
      }
      return { body, end: i + 1 };
    }
    body += ch;
    i += 1;
  }
  throw new SyntaxError(`an unterminated ${quote === '"' ? 'quoted identifier' : 'string'}`);
}

/** U& text: \XXXX and \+XXXXXX (or the UESCAPE character's) as the characters they name. */
function unicodeUnescape(body: string, escape: string): string {
  let out = '';
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (ch !== escape) {
      out += ch;
      continue;
    }
    if (body[i + 1] === escape) {
      out += escape;
      i += 1;
    } else if (body[i + 1] === '+' && /^[0-9A-Fa-f]{6}$/.test(body.slice(i + 2, i + 8))) {
      out += String.fromCodePoint(Number.parseInt(body.slice(i + 2, i + 8), 16));
      i += 7;
    } else if (/^[0-9A-Fa-f]{4}$/.test(body.slice(i + 1, i + 5))) {
      out += String.fromCodePoint(Number.parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else out += ch;
  }
  return out;
}

/** PostgreSQL's tokens of `sql`, without comments and white space. Throws SyntaxError on an unterminated string or comment. */
export function sqlTokens(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1] ?? '';
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (ch === '/' && next === '*') {
      // Comments nest in PostgreSQL.
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth += 1;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth -= 1;
          i += 2;
        } else i += 1;
      }
      if (depth > 0) throw new SyntaxError('an unterminated comment');
    } else if ((ch === 'U' || ch === 'u') && next === '&' && (sql[i + 2] === '"' || sql[i + 2] === "'")) {
      const quote = sql[i + 2]!;
      const run = quoted(sql, i + 2, quote, false);
      i = run.end;
      let escape = '\\';
      const rest = /^\s*uescape\s*'(.)'/i.exec(sql.slice(i));
      if (rest) {
        escape = rest[1]!;
        i += rest[0].length;
      }
      tokens.push({ kind: quote === '"' ? 'quoted' : 'string', text: unicodeUnescape(run.body, escape) });
    } else if ((ch === 'E' || ch === 'e') && next === "'") {
      const run = quoted(sql, i + 1, "'", true);
      tokens.push({ kind: 'string', text: run.body });
      i = run.end;
    } else if (/[BbXxNn]/.test(ch) && next === "'") {
      const run = quoted(sql, i + 1, "'", false);
      tokens.push({ kind: 'string', text: run.body });
      i = run.end;
    } else if (ch === "'") {
      const run = quoted(sql, i, "'", false);
      tokens.push({ kind: 'string', text: run.body });
      i = run.end;
    } else if (ch === '"') {
      const run = quoted(sql, i, '"', false);
      tokens.push({ kind: 'quoted', text: run.body });
      i = run.end;
    } else if (ch === '$' && /[0-9]/.test(next)) {
      const match = /^\$[0-9]+/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'param', text: match });
      i += match.length;
    } else if (ch === '$') {
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i));
      if (!tag) {
        tokens.push({ kind: 'punct', text: ch });
        i += 1;
        continue;
      }
      const end = sql.indexOf(tag[0], i + tag[0].length);
      if (end < 0) throw new SyntaxError('an unterminated dollar-quoted string');
      tokens.push({ kind: 'string', text: sql.slice(i + tag[0].length, end) });
      i = end + tag[0].length;
    } else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(next))) {
      const match = /^(?:0[xXoObB][0-9A-Fa-f_]+|[0-9_]*\.?[0-9_]+(?:[eE][+-]?[0-9]+)?|[0-9_]+\.)/.exec(sql.slice(i));
      const text = match?.[0] || ch;
      tokens.push({ kind: 'number', text });
      i += text.length;
    } else if (isWordStart(ch)) {
      let end = i + 1;
      while (end < sql.length && isWordPart(sql[end]!)) end += 1;
      tokens.push({ kind: 'word', text: sql.slice(i, end).toLowerCase() });
      i = end;
    } else {
      tokens.push({ kind: 'punct', text: ch });
      i += 1;
    }
  }
  return tokens;
}

/**
 * Why `statement` may not run as view SQL, naming the statement or function; undefined when it may.
 * `timeoutMs`: the statement limit (a literal pg_sleep longer than it is refused at once).
 */
export function refusal(statement: string, timeoutMs: number): string | undefined {
  let tokens: SqlToken[];
  try {
    tokens = sqlTokens(statement);
  } catch (error) {
    return `view SQL is not valid: ${error instanceof Error ? error.message : String(error)}`;
  }
  const first = tokens.findIndex((token) => token.text !== '(');
  const head = tokens[first];
  if (!head || head.kind !== 'word' || !QUERY_WORDS.has(head.text)) {
    const word = head?.kind === 'word' ? head.text.toUpperCase() : 'it';
    return `view SQL must be a query (SELECT …): ${word} is not allowed`;
  }
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.kind === 'punct' && token.text === ';') {
      const after = tokens.slice(i + 1).find((next) => next.text !== ';');
      if (after) return `view SQL is one query: ${after.kind === 'word' ? after.text.toUpperCase() : 'more'} after ';' is not allowed`;
      continue;
    }
    if ((token.kind !== 'word' && token.kind !== 'quoted') || tokens[i + 1]?.text !== '(') continue;
    const name = token.text.toLowerCase();
    const refused = REFUSED.find((rule) => rule.match(name));
    if (refused) return `${name} is not allowed in view SQL: ${refused.why}`;
    if (name === 'pg_sleep' && tokens[i + 2]?.kind === 'number' && tokens[i + 3]?.text === ')') {
      const seconds = Number(tokens[i + 2]!.text.replace(/_/g, ''));
      if (Number.isFinite(seconds) && seconds * 1000 >= timeoutMs) return `pg_sleep(${tokens[i + 2]!.text}) is not allowed in view SQL: it is longer than the ${timeoutMs / 1000} s statement limit`;
    }
  }
  return undefined;
}
