import { TOKEN_EXPIRY_OPTIONS } from '@common/constants';

/**
 * Expiry choices. Spec §9 lists only 'never' (the default); the server also takes a duration or a date,
 * so the dialog offers the usual lifetimes and a custom date beside it.
 */
export const EXPIRY_CHOICES = [
  { value: TOKEN_EXPIRY_OPTIONS[0], label: 'Never' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: '1y', label: '1 year' },
  { value: 'custom', label: 'Custom date' },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

export const DEFAULT_EXPIRY = TOKEN_EXPIRY_OPTIONS[0];
export const EXPIRY_DATE_MESSAGE = 'Choose a date after today';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The form keeps `expiry` as what the server takes: a choice such as '30d', or a 'YYYY-MM-DD' date. */
export function expiryChoiceOf(expiry: string): ExpiryChoice {
  return EXPIRY_CHOICES.find((choice) => choice.value === expiry && choice.value !== 'custom')?.value ?? 'custom';
}

/** A local calendar date as YYYY-MM-DD. */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The first date a custom expiry may name: tomorrow (a token that expires today is of no use). */
export function firstExpiryDate(now: Date = new Date()): string {
  return localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
}

/** True for a choice, or a real calendar date after today. */
export function isValidExpiry(expiry: string, now: Date = new Date()): boolean {
  if (expiryChoiceOf(expiry) !== 'custom') return true;
  if (!DATE.test(expiry)) return false;
  const parsed = new Date(`${expiry}T00:00:00Z`);
  // Rejects 2026-02-31 and the like, which Date would roll over into March.
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== expiry) return false;
  return expiry >= firstExpiryDate(now);
}

/**
 * What the create call sends. A custom date becomes the end of that day in the person's time zone: the
 * server reads a bare date as UTC midnight, which for someone west of UTC could already be past.
 */
export function expiryPayload(expiry: string): string {
  if (expiryChoiceOf(expiry) !== 'custom') return expiry;
  const [year = 0, month = 1, day = 1] = expiry.split('-').map(Number);
  return new Date(year, month - 1, day, 23, 59, 59, 999).toISOString();
}
