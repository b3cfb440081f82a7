export const APPLICATIONS_PATH = '/applications';

export function applicationPath(namespace: string, name: string): string {
  return `${APPLICATIONS_PATH}/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

/** The report's API address with its range (GET answers JSON; /pdf the printed report). */
export function reportApiPath(namespace: string, name: string, range: { from: string; to: string }, pdf = false): string {
  const query = new URLSearchParams({ from: range.from, to: range.to });
  return `/api/applications/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}${pdf ? '/pdf' : ''}?${query.toString()}`;
}
