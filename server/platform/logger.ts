import fs from 'node:fs';
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

/** The tee's file is started afresh at start when it is larger than this. */
export const TEE_FILE_LIMIT_BYTES = 10 * 1024 * 1024;

function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

const LEVEL_ORDER = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * A logger that writes to stdout at `level` and also appends to `file` at `fileLevel` (created with its
 * folder): `serve --demo` keeps a copy of the console's own log where the demo log backend reads it.
 */
export function createTeeLogger(level: LogLevel, file: string, fileLevel: 'info' | 'warn' = 'info'): Logger {
  const rank = (name: string) => LEVEL_ORDER.findIndex((entry) => entry === name);
  // A copy past its limit starts again: the demo's file does not grow across starts without end.
  const append = (fileSize(file) ?? 0) <= TEE_FILE_LIMIT_BYTES;
  const streams: pino.StreamEntry[] = [{ level: fileLevel, stream: pino.destination({ dest: file, mkdir: true, append, sync: true }) }];
  if (level !== 'silent') streams.push({ level, stream: process.stdout });
  const lowest = rank(level) < rank(fileLevel) ? level : fileLevel;
  return createLogger(lowest, pino.multistream(streams));
}
