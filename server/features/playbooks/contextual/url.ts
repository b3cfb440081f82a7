import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of a URL (docs/PLAYBOOKS.md): an http action's url, a sql action's connection
 * (renderSqlConnection), a gitops action's repo url. Each action's value is percent-encoded for its place
 * in the URL the literal text builds, so it stays inside that place:
 *
 * - the user info (before an `@` the literal text writes), a path segment, a query name or value, the
 *   fragment: every character outside A–Z a–z 0–9 - _ . ! ~ * ' ( ) is %-encoded (`/`, `?`, `#`, `&`, `=`,
 *   `@`, `:`, `\`, `%`, spaces, line ends); a value that makes a path segment `.` or `..` is refused (a URL
 *   parser would resolve it and climb out of the path);
 * - the host (after `://`, before the path): only a host name, address or port (letters, digits, `.`, `-`,
 *   `_`, `~`); anything else is refused — a value never changes where the request goes;
 * - before any `://` (the scheme): refused, except a value that is the URL's whole start
 *   (`{{.config.url}}/restart`): that value is the base URL, taken as written and checked to be a URL of the
 *   kind (http(s) with a host; a database URL; a git remote), and what follows it is placed as above.
 *
 * A git remote may also be written without a scheme (`github.com/org/repo`, read as https), as
 * `user@host:path` (scp-like) or as a local path (`/srv/git/app`). Git reads the path of the last two as
 * written, so a value there is not encoded: it is refused when it holds a control character, starts a
 * component with `-` or makes a component `..`.
 */

export interface UrlKind {
  /** What the whole-start value must be, for the message (`an http:// or https:// URL with a host`). */
  base: string;
  /** Whether a value that is the URL's whole start is one of this kind. */
  acceptsBase(value: string): boolean;
  /** Git: `user@host:path` and `host/path` are URLs too (their path follows the first `:` or `/`). */
  gitForms?: boolean;
}

const parsed = (text: string) => (URL.canParse(text) ? new URL(text) : undefined);

export const HTTP_URL: UrlKind = {
  base: 'an http:// or https:// URL with a host',
  acceptsBase: (value) => {
    const url = parsed(value);
    return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  },
};

/** A scp-like git remote (`git@github.com:org/repo.git`), as git reads one. */
const SCP_LIKE = /^[\w.-]+@[A-Za-z0-9.-]+:(?!\/\/)/;
/** A remote without a scheme (`github.com/org/repo`), which the checkout reads as https. */
const SCHEMELESS = /^[A-Za-z0-9][A-Za-z0-9.-]*(:\d+)?\//;

export const GIT_URL: UrlKind = {
  base: 'a git remote: an https://, http://, ssh:// or git:// URL with a host, or user@host:path',
  acceptsBase: (value) => {
    if (value.startsWith('-')) return false;
    if (SCP_LIKE.test(value)) return true;
    const url = parsed(value);
    return url !== undefined && ['http:', 'https:', 'ssh:', 'git:'].includes(url.protocol) && url.hostname !== '';
  },
  gitForms: true,
};

/**
 * A notification action's `url`: a Shoutrrr-style URL (`slack://token@channel`, `smtp://user@host/?to=…`,
 * `generic+https://host/path`). A whole-start value is taken when it is a URL with a scheme; a value anywhere
 * else is placed as in any URL, so a parameter never changes the service or host a notification goes to.
 */
export const NOTIFICATION_URL: UrlKind = {
  base: 'a notification URL with a scheme (slack://…, smtp://…, generic+https://…)',
  acceptsBase: (value) => !value.startsWith('-') && /^[a-z][a-z0-9+.-]*:\/\/\S/i.test(value) && parsed(value) !== undefined,
};

/** Whether `text` is a connection string the sql action reads (URL, libpq pairs or a Go DSN). */
export type ConnectionStringTest = (text: string) => boolean;

const CONNECTION_NAME = /^(connection:\/\/)?[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/**
 * A sql action's `connection`: a stored connection's name (`connection://namespace/name` or `name`) or a
 * connection string. A value in a name is a name (letters, digits, `.`, `_`, `-`); in a URL
 * (`postgres://{{.params.user}}@db/app`) it is placed as in any URL; a whole-start value may be a connection
 * string or a name; a value inside a connection string that is not a URL (libpq `host=… dbname=…`, Go's
 * `user@tcp(host)/db`) is refused, since nothing there keeps it to its field.
 */
export function renderSqlConnection(where: string, segments: readonly OutputSegment[], isConnectionString: ConnectionStringTest): string {
  if (!segments.some((segment) => segment.action)) return segments.map((segment) => segment.text).join('');
  const literal = segments.filter((segment) => !segment.action).map((segment) => segment.text).join('');
  const kind: UrlKind = {
    base: 'a connection\'s name or a database connection string (postgres://, mysql://, sqlserver://, libpq host=… pairs or user:password@tcp(host)/db)',
    acceptsBase: (value) => {
      if (value.startsWith('-')) return false;
      const url = parsed(value);
      if (url && url.protocol !== 'connection:') return ['postgres:', 'postgresql:', 'mysql:', 'sqlserver:', 'mssql:'].includes(url.protocol) && url.hostname !== '';
      return CONNECTION_NAME.test(value) || isConnectionString(value);
    },
  };
  if (segments[0]?.action || literal.includes('://')) return renderUrl(where, segments, kind);
  let out = '';
  let count = 0;
  for (const segment of segments) {
    if (segment.action) {
      const index = count;
      count += 1;
      if (/[=@(\s]/.test(literal)) throw new TemplateValueRefused(where, `${nth(index)} is in a connection string that is not a URL: only a postgres://, mysql:// or sqlserver:// URL takes values`);
      if (!/^[A-Za-z0-9._-]*$/.test(segment.text)) throw new TemplateValueRefused(where, `${nth(index)} is in a connection's name and is not a name (letters, digits, '.', '_', '-')`);
    }
    out += segment.text;
  }
  return out;
}

function encode(where: string, index: number, value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new TemplateValueRefused(where, `${nth(index)} is not valid text (a lone surrogate) and cannot be put in a URL`);
  }
}

/** `plainPath`: the path of a scp-like remote or a local repository, which git reads as written (not %-decoded). */
type Place = 'scheme' | 'userinfo' | 'host' | 'path' | 'plainPath' | 'query' | 'fragment';

/** Where the next character of `text` (a URL's start) falls; `ahead` is the literal text that follows. */
function placeAfter(text: string, ahead: string, kind: UrlKind): Place {
  const scheme = text.indexOf('://');
  let rest: string;
  if (scheme >= 0) rest = text.slice(scheme + 3);
  else if (kind.gitForms && (SCP_LIKE.test(text) || text.startsWith('/'))) return 'plainPath';
  else if (kind.gitForms && SCHEMELESS.test(text)) rest = text;
  else return 'scheme';
  if (rest.includes('#')) return 'fragment';
  if (rest.includes('?')) return 'query';
  if (/[/\\]/.test(rest)) return 'path';
  // Still in the authority: an `@` the literal text writes later makes this the user info.
  const authorityAhead = ahead.split(/[/\\?#]/)[0] ?? '';
  if (!rest.includes('@') && authorityAhead.includes('@')) return 'userinfo';
  return 'host';
}

/** The URL with every action's value encoded for its place; TemplateValueRefused where it cannot go. */
export function renderUrl(where: string, segments: readonly OutputSegment[], kind: UrlKind = HTTP_URL): string {
  let out = '';
  let count = 0;
  const inPath: Array<{ start: number; end: number; index: number }> = [];
  for (const [position, segment] of segments.entries()) {
    if (!segment.action) {
      out += segment.text;
      continue;
    }
    const index = count;
    count += 1;
    const value = segment.text;
    if (position === 0 || (out.trim() === '' && segments.slice(0, position).every((item) => !item.action))) {
      const base = value.trim();
      if (/[\s]/.test(base) || !kind.acceptsBase(base)) {
        throw new TemplateValueRefused(where, `${nth(index)} starts the URL, so it must be ${kind.base}`);
      }
      out += base;
      continue;
    }
    const ahead = segments.slice(position + 1).filter((item) => !item.action).map((item) => item.text).join('');
    const place = placeAfter(out, ahead, kind);
    switch (place) {
      case 'scheme':
        throw new TemplateValueRefused(where, `${nth(index)} is in the URL's scheme: a value never chooses the scheme or host`);
      case 'host': {
        const authority = out.slice(out.indexOf('://') + 3).split('@').pop() ?? '';
        if (authority.includes(':') && !authority.startsWith('[') && !/^\d*$/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} is in the URL's port and is not a number`);
        if (!/^[A-Za-z0-9._~-]*$/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} is in the URL's host and is not a host name, address or port: a value never changes where the request goes`);
        if (value.startsWith('-') && /(:\/\/|@)$/.test(out)) throw new TemplateValueRefused(where, `${nth(index)} starts the URL's host with "-", which a client could read as an option`);
        out += value;
        break;
      }
      case 'path': {
        const start = out.length;
        out += encode(where, index, value);
        inPath.push({ start, end: out.length, index });
        break;
      }
      case 'plainPath': {
        if (/[\u0000-\u001f\u007f]/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} holds a control character (a line end, NUL or escape), which a repository path cannot hold`);
        if ((value.startsWith('-') && /[/:]$/.test(out)) || value.includes('/-')) throw new TemplateValueRefused(where, `${nth(index)} starts a path component with "-", which git would read as an option`);
        inPath.push({ start: out.length, end: out.length + value.length, index });
        out += value;
        break;
      }
      case 'userinfo':
      case 'query':
      case 'fragment':
        out += encode(where, index, value);
        break;
    }
  }
  // A value that makes a whole path segment "." or ".." would be resolved away by the URL parser.
  if (inPath.length > 0) {
    const scheme = out.indexOf('://');
    // scp-like `user@host:path`: the path follows the first ':'; otherwise the first '/' after the authority.
    const authority = scheme < 0 ? 0 : scheme + 3;
    const pathStart = scheme < 0 && kind.gitForms && SCP_LIKE.test(out) ? out.indexOf(':') : out.slice(authority).search(/[/\\]/) + authority;
    const tail = out.slice(pathStart);
    const pathEnd = pathStart + (tail.search(/[?#]/) < 0 ? tail.length : tail.search(/[?#]/));
    let segmentStart = pathStart + 1;
    for (let cursor = pathStart + 1; cursor <= pathEnd; cursor++) {
      if (cursor < pathEnd && out[cursor] !== '/' && out[cursor] !== '\\') continue;
      const text = out.slice(segmentStart, cursor).replace(/%2e/gi, '.');
      const touched = inPath.find((item) => item.start < cursor && item.end > segmentStart);
      if (touched && (text === '.' || text === '..')) throw new TemplateValueRefused(where, `${nth(touched.index)} makes the URL path segment "${text}", which would climb out of the path`);
      segmentStart = cursor + 1;
    }
  }
  return out;
}

/** A header value from a template: no line ends or NUL (they would start another header). */
export function checkHeaderValue(where: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new TemplateValueRefused(where, 'holds a line end or NUL character, which a header value cannot carry');
  return value;
}
