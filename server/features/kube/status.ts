import { isRecord } from '../../platform/errors';
import { AppError, statusOf } from '../../platform/http/errors';

export type StatusReason = 'BadRequest' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'MethodNotAllowed' | 'AlreadyExists' | 'Conflict' | 'UnsupportedMediaType' | 'Invalid' | 'InternalError' | 'RequestEntityTooLarge';

const CODES: Record<StatusReason, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  AlreadyExists: 409,
  Conflict: 409,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  InternalError: 500,
};

/** An error answered as a Kubernetes `Status` object (kind Status, status Failure, reason, code). */
export class KubeError extends Error {
  constructor(
    readonly reason: StatusReason,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; causes?: Array<{ field?: string; message: string; reason?: string }> },
  ) {
    super(message);
  }
  get code(): number {
    return CODES[this.reason];
  }
}

export function statusBody(error: KubeError): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: error.message, reason: error.reason, ...(error.details ? { details: error.details } : {}), code: error.code };
}

function reasonOfStatus(status: number): StatusReason {
  const found = (Object.entries(CODES) as Array<[StatusReason, number]>).find(([, code]) => code === status);
  return found ? found[0] : status >= 500 ? 'InternalError' : 'BadRequest';
}

/** Anything thrown under /api/kubernetes as a KubeError; an unknown error keeps its cause out of the answer. */
export function asKubeError(error: unknown): KubeError {
  if (error instanceof KubeError) return error;
  if (error instanceof AppError) return new KubeError(error.code === 'conflict' ? 'Conflict' : reasonOfStatus(statusOf(error.code)), error.message);
  // fastify's own errors (a body that is too large, a bad content type) carry a 4xx statusCode.
  if (isRecord(error) && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 && typeof error.message === 'string') {
    return new KubeError(reasonOfStatus(error.statusCode), error.message);
  }
  return new KubeError('InternalError', 'the request could not be completed; see the server log');
}
