import { describe, expect, it } from 'vitest';
import { ApiError } from '@web/lib/api';
import { dbErrorMessage, viewErrorMessage } from './errors';

describe('view error text (spec §7)', () => {
  it("shows the server's message, else 'HTTP {status}: {text}'", () => {
    expect(viewErrorMessage(new ApiError('view x not found', 'http', 404, { error: 'not_found', message: 'view x not found' }))).toBe('view x not found');
    expect(viewErrorMessage(new ApiError('502 Bad Gateway', 'http', 502, 'upstream down'))).toBe('HTTP 502: upstream down');
    expect(viewErrorMessage(new ApiError('500 Internal Server Error', 'http', 500, undefined))).toBe('HTTP 500: Internal Server Error');
    expect(viewErrorMessage(new ApiError('Network Error. Please try again.', 'network'))).toBe('Network Error. Please try again.');
    expect(dbErrorMessage({ message: 'column "x" does not exist' }, 400, 'Bad Request')).toBe('column "x" does not exist');
    expect(dbErrorMessage(null, 503, 'Service Unavailable')).toBe('HTTP 503: Service Unavailable');
  });
});
