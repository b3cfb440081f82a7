import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_TEXTS } from './api';
import { toastErrorText } from './toast';

describe('toast error text (spec §8)', () => {
  it('prefers the response data error, then its message, then a default', () => {
    expect(toastErrorText({ response: { data: { error: 'Connection refused by host', message: 'other' } } })).toBe('Connection refused by host');
    expect(toastErrorText({ response: { data: { message: 'Name is required' } } })).toBe('Name is required');
    expect(toastErrorText({ response: { data: {} } })).toBe('An error occurred');
    expect(toastErrorText(undefined)).toBe('An error occurred');
    expect(toastErrorText({})).toBe('An error occurred');
  });

  it('reads the body of our ApiError, where `error` is a code and `message` the sentence', () => {
    const error = new ApiError('name: required', 'http', 400, { error: 'invalid_request', message: 'name: required' });
    expect(toastErrorText(error)).toBe('name: required');
    expect(toastErrorText(new ApiError('x', 'http', 409, { error: 'conflict' }))).toBe('conflict');
  });

  it('shows the network texts and plain error messages', () => {
    expect(toastErrorText(new ApiError(NETWORK_ERROR_TEXTS.timeout, 'timeout'))).toBe('Request timed out. Please try again.');
    expect(toastErrorText(new Error('Boom'))).toBe('Boom');
    expect(toastErrorText('Plain text')).toBe('Plain text');
  });
});
