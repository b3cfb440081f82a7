// Query parameters that carry credentials (?token=…, ?api_key=…) are masked wherever the URL is shown.
const SECRET_PARAMETER = /pass|secret|token|key|auth|signature|sig$/i;

/** The URL as people see it (endpoint, messages, details): no user or password, credentials masked. */
export function shown(url: URL): string {
  const copy = new URL(url);
  copy.username = '';
  copy.password = '';
  for (const name of new Set(copy.searchParams.keys())) if (SECRET_PARAMETER.test(name)) copy.searchParams.set(name, '***');
  return copy.toString();
}

/** A URL that may not parse (a template, a mistake), without what looks like user:password@. */
export function shownText(text: string): string {
  return URL.canParse(text) ? shown(new URL(text)) : text.replace(/\/\/[^/@\s]*@/, '//');
}
