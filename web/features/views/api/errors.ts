import { ApiError, errorBodyMessage } from '@web/lib/api';

/**
 * Spec §7: a failing view call raises the server's error, else 'HTTP {status}: {text}'. ApiError already
 * carries the server's message when it sent one; an answer without a readable body becomes the HTTP form.
 */
export function viewErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'http' && error.status !== undefined) {
    const server = errorBodyMessage(error.data);
    if (server) return server;
    const body = typeof error.data === 'string' ? error.data.trim() : '';
    // ApiError's own fallback is '{status} {statusText}'; keep the status text.
    const statusText = error.message.replace(/^\d{3}\s*/, '').trim();
    return `HTTP ${error.status}: ${body || statusText || 'Request failed'}`;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'An error occurred';
}

/** A PostgREST (postgrest-js) failure as the same text: its message, else 'HTTP {status}: {statusText}'. */
export function dbErrorMessage(error: { message?: string } | null, status: number, statusText: string): string {
  const message = error?.message?.trim();
  if (message) return message;
  return `HTTP ${status}: ${statusText || 'Request failed'}`;
}
