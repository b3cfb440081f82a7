import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Prefixes make a leaked value recognisable (secret scanners) and tell a session from an API token. */
export const SESSION_TOKEN_PREFIX = 'wk_st_';
export const ACCESS_TOKEN_PREFIX = 'wk_at_';

/** 256 random bits, base64url. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

export const newSessionToken = () => `${SESSION_TOKEN_PREFIX}${randomSecret()}`;
export const newAccessToken = () => `${ACCESS_TOKEN_PREFIX}${randomSecret()}`;

/**
 * Tokens carry 256 random bits, so a plain SHA-256 is the right store: it cannot be reversed, and a
 * lookup by hash costs one index probe (a slow hash would cost 60 ms on every request).
 */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A numeric one-time code of `digits` digits (recovery and verification codes). */
export function numericCode(digits = 6): string {
  let code = '';
  for (let i = 0; i < digits; i += 1) code += String(randomInt(10));
  return code;
}

/** Backup (lookup) codes: 8 characters from an alphabet without look-alikes. */
const LOOKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export function lookupCode(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += LOOKUP_ALPHABET[randomInt(LOOKUP_ALPHABET.length)];
  return code;
}
