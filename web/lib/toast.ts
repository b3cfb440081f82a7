import { TOAST_DURATION_MS } from '@common/constants';
import { toast as sonner } from 'sonner';
import { ApiError } from './api';

export { TOAST_DURATION_MS };
/** Spec §9: toasts last 5000 ms, bottom-right (the <Toaster/> in providers.tsx uses these). */
export const TOAST_POSITION = 'bottom-right';
export const DEFAULT_ERROR_TEXT = 'An error occurred';

function field(data: unknown, key: 'error' | 'message'): string | undefined {
  if (!data || typeof data !== 'object' || !(key in data)) return undefined;
  const value: unknown = Reflect.get(data, key);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A machine code such as `invalid_request` (our API's `error` field) is not a sentence to show a person. */
function isCode(text: string): boolean {
  return /^[a-z0-9]+([._-][a-z0-9]+)*$/.test(text);
}

/** The response body carried by an error, when there is one (ours, or any `{ response: { data } }`). */
function responseData(error: unknown): unknown {
  if (error instanceof ApiError) return error.data;
  if (error && typeof error === 'object' && 'response' in error) {
    const response: unknown = Reflect.get(error, 'response');
    if (response && typeof response === 'object' && 'data' in response) return Reflect.get(response, 'data');
  }
  if (error && typeof error === 'object' && !(error instanceof Error)) return error;
  return undefined;
}

/**
 * Spec §8: the response data's `error`, else its `message`, else 'An error occurred'. Two additions, so
 * a person always reads a sentence: an `error` that is only a code (our API puts codes there and the text
 * in `message`) yields to `message`, and an error without response data (a network failure, whose text
 * is one of spec §8's network texts) shows its own message.
 */
export function toastErrorText(error: unknown): string {
  if (typeof error === 'string') return error.trim() || DEFAULT_ERROR_TEXT;
  const data = responseData(error);
  const dataError = field(data, 'error');
  const dataMessage = field(data, 'message');
  if (dataError && !isCode(dataError)) return dataError;
  if (dataMessage) return dataMessage;
  if (dataError) return dataError;
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return DEFAULT_ERROR_TEXT;
}

/** The three toast types of spec §8. Loading toasts have no close button; they are replaced or dismissed. */
export const toast = {
  success: (message: string) => sonner.success(message, { duration: TOAST_DURATION_MS }),
  error: (error: unknown) => sonner.error(toastErrorText(error), { duration: TOAST_DURATION_MS }),
  loading: (message: string) => sonner.loading(message, { closeButton: false, duration: Infinity }),
  dismiss: (id?: string | number) => sonner.dismiss(id),
};
