export const APPLICATIONS_PATH = '/applications';

export function applicationPath(namespace: string, name: string): string {
  return `${APPLICATIONS_PATH}/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

/** How the person reads dates, for the PDF, which the server prints in its own browser (format and IANA zone). */
export interface ReportDisplay {
  dateFormat: string;
  timeZone: string;
}

/** The report's API address with its range (GET answers JSON; /pdf the printed report, dates as `display` says). */
export function reportApiPath(namespace: string, name: string, range: { from: string; to: string }, pdf = false, display?: ReportDisplay): string {
  const query = new URLSearchParams({ from: range.from, to: range.to });
  if (pdf && display) {
    query.set('dateTimeFormat', display.dateFormat);
    query.set('timezone', display.timeZone);
  }
  return `/api/applications/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}${pdf ? '/pdf' : ''}?${query.toString()}`;
}
