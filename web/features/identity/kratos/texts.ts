import type { UiText } from './schema';

/** Spec §8 identity error texts, shown above a restarted flow. */
export const FLOW_ERROR_TEXTS = {
  returnToForbidden: 'The return_to address is not allowed.',
  expired: 'Your interaction expired, please fill out the form again.',
  csrf: 'A security violation was detected, please fill out the form again.',
} as const;

/** A message of the console's own (not from the server), shown like the flow's messages. */
export function notice(text: string, type: UiText['type'] = 'error'): UiText {
  return { id: 0, text, type };
}
