import { lookupCode, safeEqual, sha256 } from '../../../platform/crypto';
import { isRecord } from '../../../platform/errors';

export const LOOKUP_CODE_COUNT = 12;

export interface StoredLookupCode {
  hash: string;
  used_at?: string;
}

export function newLookupCodes(): string[] {
  return Array.from({ length: LOOKUP_CODE_COUNT }, lookupCode);
}

/** Only hashes are stored; the codes are shown once, when generated (spec: keep them safe). */
export function storeLookupCodes(codes: readonly string[]): StoredLookupCode[] {
  return codes.map((code) => ({ hash: sha256(code) }));
}

export function parseStoredCodes(config: Record<string, unknown> | undefined): StoredLookupCode[] {
  const codes = config?.codes;
  if (!Array.isArray(codes)) return [];
  return codes.filter(isRecord).flatMap((item) =>
    typeof item.hash === 'string' ? [{ hash: item.hash, ...(typeof item.used_at === 'string' ? { used_at: item.used_at } : {}) }] : [],
  );
}

export type LookupResult = { ok: true; codes: StoredLookupCode[] } | { ok: false; reason: 'used' | 'invalid' };

/** Uses one code: answers the codes with it marked used, or why it cannot be used. */
export function useLookupCode(stored: readonly StoredLookupCode[], entered: string): LookupResult {
  const hash = sha256(entered.trim().toLowerCase().replace(/[\s-]/g, ''));
  const index = stored.findIndex((item) => safeEqual(item.hash, hash));
  if (index < 0) return { ok: false, reason: 'invalid' };
  if (stored[index]?.used_at) return { ok: false, reason: 'used' };
  return { ok: true, codes: stored.map((item, i) => (i === index ? { ...item, used_at: new Date().toISOString() } : item)) };
}
