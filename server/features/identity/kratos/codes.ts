import { isRecord } from '../../../platform/errors';
import { numericCode, safeEqual, sha256 } from '../../../platform/crypto';

/** Recovery and verification codes: 6 digits, valid 15 minutes, 5 wrong tries (docs/AUTH.md). */
export const CODE_LIFESPAN_MS = 15 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

export interface CodeState {
  code_hash: string;
  /** The identity the code was sent for; null when no account uses the address (nothing was sent). */
  identity_id: string | null;
  email: string;
  attempts: number;
  sent_at: string;
}

export function newCode(identityId: string | null, email: string): { code: string; state: CodeState } {
  const code = numericCode(6);
  return { code, state: { code_hash: sha256(code), identity_id: identityId, email, attempts: 0, sent_at: new Date().toISOString() } };
}

export function readCodeState(internal: Record<string, unknown>): CodeState | undefined {
  const value = internal.code;
  if (!isRecord(value) || typeof value.code_hash !== 'string' || typeof value.email !== 'string' || typeof value.sent_at !== 'string') return undefined;
  return {
    code_hash: value.code_hash,
    identity_id: typeof value.identity_id === 'string' ? value.identity_id : null,
    email: value.email,
    attempts: typeof value.attempts === 'number' ? value.attempts : 0,
    sent_at: value.sent_at,
  };
}

export type CodeCheck = { ok: true; identityId: string; email: string } | { ok: false; reason: 'invalid' | 'too_often' | 'expired'; state: CodeState | undefined };

/** Checks an entered code; every wrong try counts, and the state to save comes back with the answer. */
export function checkCode(state: CodeState | undefined, entered: string): CodeCheck {
  if (!state) return { ok: false, reason: 'invalid', state };
  if (state.attempts >= MAX_CODE_ATTEMPTS) return { ok: false, reason: 'too_often', state };
  if (Date.now() - Date.parse(state.sent_at) > CODE_LIFESPAN_MS) return { ok: false, reason: 'expired', state };
  const matches = safeEqual(state.code_hash, sha256(entered.trim()));
  if (!matches || !state.identity_id) {
    const next = { ...state, attempts: state.attempts + 1 };
    return { ok: false, reason: next.attempts >= MAX_CODE_ATTEMPTS ? 'too_often' : 'invalid', state: next };
  }
  return { ok: true, identityId: state.identity_id, email: state.email };
}

export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) || /^[^\s@]+@localhost$/.test(value);
}
