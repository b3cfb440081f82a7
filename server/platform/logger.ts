import pino, { type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

/** JSON logs on stdout. Secrets never reach a log line: the redact list covers the places they travel. */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'watchkeeper' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-session-token"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
          'password',
          'token',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
