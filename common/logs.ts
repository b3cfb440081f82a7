/** Logs (docs/LOGS.md): search ranges and limits shared by POST /api/logs and the /logs page. */

/** The ranges the /logs page offers (a duration before now); the default is the first hour. */
export const LOGS_RANGES = ['15m', '1h', '6h', '24h', '7d', '30d'] as const;
export const LOGS_DEFAULT_RANGE = '1h';

/** Lines one search answers: by default, and at most. */
export const LOGS_LIMIT_DEFAULT = 500;
export const LOGS_LIMIT_MAX = 5000;

/** A log line as POST /api/logs answers it. */
export interface LogLineResult {
  id: string;
  time: string;
  message: string;
  level?: string;
  source: string;
  labels: Record<string, string>;
}
