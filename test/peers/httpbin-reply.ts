import type { IncomingMessage } from 'node:http';

/** One answer of the httpbin stand-in. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function reply(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body };
}

/** JSON as httpbin writes it: indented two spaces, a final newline. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: `${JSON.stringify(value, null, 2)}\n` };
}

/** A header name as Go (and httpbin's Werkzeug) write it: Content-Type, X-Amz-Date. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** The request headers as httpbin echoes them: canonical names, repeated ones joined with a comma. */
export function echoedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    const name = canonicalName(request.rawHeaders[index] ?? '');
    const value = request.rawHeaders[index + 1] ?? '';
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  return headers;
}

/** Query arguments as httpbin shows them: a value, or a list when a name repeats. */
export function args(url: URL): Record<string, string | string[]> {
  const found: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    found[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return found;
}
