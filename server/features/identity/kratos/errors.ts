/**
 * Kratos error answers: `{ error: { id, code, status, reason, message, details? }, redirect_browser_to? }`.
 * The ids are the ones spec §8 lists; clients route on them.
 */
export type KratosErrorId =
  | 'session_inactive'
  | 'session_aal1_required'
  | 'session_aal2_required'
  | 'session_already_available'
  | 'session_refresh_required'
  | 'self_service_flow_return_to_forbidden'
  | 'self_service_flow_expired'
  | 'self_service_flow_disabled'
  | 'security_csrf_violation'
  | 'security_identity_mismatch'
  | 'browser_location_change_required'
  | 'self_service_flow_not_found'
  | 'rate_limit_exceeded';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
};

export interface KratosErrorBody {
  error: { id?: string; code: number; status: string; reason: string; message: string; details?: Record<string, unknown> };
  redirect_browser_to?: string;
  use_flow_id?: string;
}

export class KratosError extends Error {
  constructor(
    readonly code: number,
    readonly id: KratosErrorId | undefined,
    readonly reason: string,
    readonly extra: { redirectBrowserTo?: string; useFlowId?: string; details?: Record<string, unknown> } = {},
  ) {
    super(reason);
    this.name = 'KratosError';
  }

  toBody(): KratosErrorBody {
    const status = STATUS_TEXT[this.code] ?? 'Error';
    const body: KratosErrorBody = {
      error: {
        ...(this.id ? { id: this.id } : {}),
        code: this.code,
        status,
        reason: this.reason,
        message: messageFor(this.code),
        ...(this.extra.details ? { details: this.extra.details } : {}),
      },
    };
    if (this.extra.redirectBrowserTo) body.redirect_browser_to = this.extra.redirectBrowserTo;
    if (this.extra.useFlowId) body.use_flow_id = this.extra.useFlowId;
    return body;
  }
}

function messageFor(code: number): string {
  switch (code) {
    case 400:
      return 'The request was malformed or contained invalid parameters';
    case 401:
      return 'The request could not be authorized';
    case 403:
      return 'The requested action was forbidden';
    case 404:
      return 'The requested resource could not be found';
    case 410:
      return 'The requested resource is no longer available';
    case 422:
      return 'The request cannot be processed here';
    case 429:
      return 'Too many requests';
    default:
      return 'An error occurred';
  }
}

export const noSession = () => new KratosError(401, 'session_inactive', 'No active session was found in this request.');
export const aal2Required = (redirect: string) =>
  new KratosError(403, 'session_aal2_required', 'This account has a second factor: complete it to continue.', { redirectBrowserTo: redirect });
export const alreadySignedIn = () => new KratosError(400, 'session_already_available', 'A valid session was detected, so signing in again is not needed.');
export const refreshRequired = (redirect: string) =>
  new KratosError(403, 'session_refresh_required', 'This change needs a recent sign-in: confirm it is you, then try again.', { redirectBrowserTo: redirect });
export const returnToForbidden = () => new KratosError(400, 'self_service_flow_return_to_forbidden', 'The return_to address is not allowed.');
export const csrfViolation = () =>
  new KratosError(403, 'security_csrf_violation', 'A security violation was detected, please fill out the form again.', {
    details: { hint: 'The anti-CSRF cookie and the csrf_token of the form do not match. Reload the form in this browser and try again.' },
  });
export const identityMismatch = () => new KratosError(403, 'security_identity_mismatch', 'The requested action was forbidden: this flow belongs to a different account.');
export const flowNotFound = () => new KratosError(404, 'self_service_flow_not_found', 'The flow does not exist; start a new one.');
export const flowExpired = (useFlowId: string | undefined, since: Date) =>
  new KratosError(410, 'self_service_flow_expired', 'Your interaction expired, please fill out the form again.', {
    ...(useFlowId ? { useFlowId } : {}),
    details: { since: since.toISOString() },
  });
export const locationChange = (redirect: string) =>
  new KratosError(422, 'browser_location_change_required', 'The browser must continue at another address.', { redirectBrowserTo: redirect });
export const registrationDisabled = () => new KratosError(400, 'self_service_flow_disabled', 'Registration is turned off on this server; ask an administrator for an invitation.');
export const badRequest = (reason: string) => new KratosError(400, undefined, reason);
