/**
 * A PostgREST `or` filter matching `term` anywhere in any of `columns`, case-insensitively. The term is
 * quoted (so commas and parentheses stay text) with `"` and `\` escaped; `*` is PostgREST's wildcard.
 */
export function ilikeAny(columns: readonly string[], term: string): string {
  const quoted = `"*${term.replace(/[\\"]/g, (ch) => `\\${ch}`)}*"`;
  return columns.map((column) => `${column}.ilike.${quoted}`).join(',');
}
