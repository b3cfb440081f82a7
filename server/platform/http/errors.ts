/**
 * Errors are values with stable codes (DESIGN §5): `{ error: code, message, details? }`. Every code maps
 * to exactly one HTTP status here; unknown errors become `internal_error` and their cause is only logged.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'invalid_request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'unprocessable':
      return 422;
    case 'rate_limited':
      return 429;
    case 'internal_error':
      return 500;
    case 'service_unavailable':
      return 503;
  }
}

export interface Issue {
  /** Where the problem is, as a dotted path (`body.spec.url`, `query.limit`). */
  path: string;
  message: string;
  /**
   * A problem upstream tools find only when the thing runs (a secret reference, a stored connection, an
   * endpoint they parse at run time): it is a warning at apply, and the run fails with it.
   */
  atRun?: boolean;
}

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: unknown;
}

export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return statusOf(this.code);
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { error: this.code, message: this.message } : { error: this.code, message: this.message, details: this.details };
  }
}

/** Every validation issue at once, so a form can mark all its fields. */
export class ValidationError extends AppError {
  constructor(public readonly issues: Issue[]) {
    super('invalid_request', summarizeIssues(issues), issues);
    this.name = 'ValidationError';
  }
}

export function summarizeIssues(issues: Issue[]): string {
  if (issues.length === 0) return 'invalid request';
  const parts = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  return issues.length === 1 ? (parts[0] ?? 'invalid request') : `${issues.length} problems: ${parts.join('; ')}`;
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const conflict = (message: string) => new AppError('conflict', message);
